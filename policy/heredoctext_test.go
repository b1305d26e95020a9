package policy

import "testing"

// TestHeredocTextIsKnown: `"$(cat <<'EOF' … EOF)"` inside double quotes is
// its text, judged as if written out (Claude Code's commit idiom is
// allowed; a payload spelled that way is judged as the payload). Unquoted,
// or with an unquoted delimiter, it is not known.
func TestHeredocTextIsKnown(t *testing.T) {
	ctx := testEnv(t)
	ctx.Sandboxed = true
	e := Default()
	cases := []struct {
		line string
		want Decision
	}{
		{"git commit -m \"$(cat <<'EOF'\nfix: handle empty input\n\nCo-Authored-By: Claude <noreply@anthropic.com>\nEOF\n)\"", Allow},
		{"git commit -m \"$(cat <<\"EOF\"\nfeat: x\nEOF\n)\"", Allow},
		{"gh pr create --title x --body \"$(cat <<'EOF'\nbody\nEOF\n)\"", Ask},
		{"sh -c \"$(cat <<'EOF'\nrm -rf ~\nEOF\n)\"", Deny},
		{"git \"$(cat <<'EOF'\n--exec-path=/tmp\nEOF\n)\" status", Deny},
		{"git $(cat <<'EOF'\nstatus\nEOF\n)", Ask},
		{"git commit -m \"$(cat <<EOF\n$(id)\nEOF\n)\"", Ask},
		{"git commit -m \"$(cat x <<'EOF'\nmsg\nEOF\n)\"", Ask},
	}
	for _, c := range cases {
		v := e.Check(Query{Kind: KindShell, Command: c.line, Context: ctx})
		if c.want == Allow && v.Decision != Allow || c.want != Allow && v.Decision == Allow || c.want == Deny && v.Decision != Deny {
			t.Errorf("%q: %s by %s (%s), want %s", c.line, v.Decision, v.Rule, v.Reason, c.want)
		}
	}
}
