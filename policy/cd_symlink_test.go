package policy

import (
	"os"
	"path/filepath"
	"testing"
)

// bash's cd takes a later .. by the link's name, not its target: after
// `cd l` (l -> src/deep), `cd ..` is the workspace, and `cd l/..` too,
// where the kernel's reading says src. The policy keeps both readings, so
// neither spelling reaches outside the workspace unseen; in an && list,
// the directory left stays one too.
func TestCdThroughALinkKeepsBashsReading(t *testing.T) {
	ctx := testEnv(t)
	ws := ctx.Workspace
	if err := os.MkdirAll(filepath.Join(ws, "src", "deep"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join("src", "deep"), filepath.Join(ws, "l")); err != nil {
		t.Fatal(err)
	}
	e := Default()
	for _, c := range []struct {
		cmd  string
		want Decision
	}{
		{"cd l && cd .. && rm -rf ../home/x", Deny},
		{"cd l/.. && rm -rf ../home/x", Deny},
		{"cd l/../.. && rm -rf x", Deny},
		{"pushd l && cd .. && rm -rf ../home/x", Deny},
		{"cd l && ls", Allow},
		{"cd src/deep && cd .. && ls", Allow},
	} {
		if v := e.Check(Query{Kind: KindShell, Command: c.cmd, Context: ctx}); v.Decision != c.want {
			t.Errorf("%q: %s by %s (%s), want %s", c.cmd, v.Decision, v.Rule, v.Reason, c.want)
		}
	}
}
