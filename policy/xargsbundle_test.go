package policy

import "testing"

// TestXargsFeedBundledOptions: xargs's short options bundle as getopt's do
// (-0r is -0 -r, -rn1 is -r -n 1, -0I{} is -0 -I {}), and its long options
// take =VALUE (--max-args=1, --replace=X); fed by find, echo, printf or ls,
// the command xargs would run is judged with the items in place
// (xargsfeed.go, findfeed.go) whatever the spelling. polcorp15's `find
// ~/code -maxdepth 1 -type d -name 'old*' -print0 | xargs -0r rm -rf`
// (google-gemini/gemini-cli#19143) asked where the unbundled -0 -r form
// is denied; the process-substitution feed `xargs -0 rm -rf < <(printf
// '%s\0' ~/Documents)` asked where the pipe is denied.
func TestXargsFeedBundledOptions(t *testing.T) {
	ctx := testEnv(t)
	on := ctx
	on.Sandboxed = true
	e := Default()
	for _, cmd := range []string{
		"find ~/code -maxdepth 1 -type d -name 'old*' -print0 | xargs -0r rm -rf",
		"find ~/code -maxdepth 1 -type d -print0 | xargs -r0 rm -rf",
		"printf '%s\\n' ~/code | xargs -rn1 rm -rf",
		"printf '%s\\0' ~/code | xargs -0rI{} rm -rf {}",
		"echo ~/.ssh | xargs --max-args=1 rm -rf",
		"echo ~/.ssh | xargs --no-run-if-empty --replace=X rm -rf X",
		"xargs -0 rm -rf < <(printf '%s\\0' ~/Documents)",
		"xargs rm -rf < <(echo ~)",
	} {
		for _, c := range []Context{on, ctx} {
			if v := e.Check(Query{Kind: KindShell, Command: cmd, Context: c}); v.Decision != Deny {
				t.Errorf("sandbox %v: %q is %s by %s (%s), want deny", c.Sandboxed, cmd, v.Decision, v.Rule, v.Reason)
			}
		}
	}
	for _, cmd := range []string{"git ls-files '*.go' | xargs -0r gofmt -l", "printf '%s\\n' src/a.go | xargs -rn1 wc -l"} {
		if v := e.Check(Query{Kind: KindShell, Command: cmd, Context: on}); v.Decision == Deny {
			t.Errorf("%q denied by %s (%s)", cmd, v.Rule, v.Reason)
		}
	}
}
