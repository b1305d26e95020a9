package policy

import "testing"

// An output-directory variable is judged by its value (envoutdir.go): a
// directory under the current one is everyday, anywhere else asks.
func TestPol8OutputDirVariables(t *testing.T) {
	ctx := testEnv(t)
	on, off := ctx, ctx
	on.Sandboxed = true
	e := Default()
	for _, c := range []struct {
		cmd     string
		on, off Decision
	}{
		{"CARGO_TARGET_DIR=target/ci cargo build --locked", Allow, Allow},
		{"CARGO_TARGET_DIR=./target-llvm cargo test", Allow, Allow},
		{"CARGO_TARGET_DIR=/tmp/x cargo build", Ask, Ask},
		{"CARGO_TARGET_DIR=../x cargo build", Ask, Ask},
		{"CARGO_TARGET_DIR=~/t cargo build", Ask, Ask},
		{"CARGO_TARGET_DIR=$HOME/t cargo build", Ask, Ask},
		{"CARGO_TARGET_DIR=target/../../x cargo build", Ask, Ask},
		{"CARGO_HOME=./h cargo build", Deny, Deny},
		{"GOCACHE=./c go build ./...", Ask, Ask},
	} {
		for _, m := range []struct {
			cx   Context
			want Decision
		}{{on, c.on}, {off, c.off}} {
			v := e.Check(Query{Kind: KindShell, Command: c.cmd, Context: m.cx})
			if v.Decision != m.want {
				t.Errorf("%q (sandbox %v): %s by %s (%s), want %s", c.cmd, m.cx.Sandboxed, v.Decision, v.Rule, v.Reason, m.want)
			}
		}
	}
}
