package policy

import "testing"

// valgrind with the options the policy knows is the program it runs.
func TestValgrindJudgesItsProgram(t *testing.T) {
	ctx := testEnv(t)
	ctx.Sandboxed = true
	e := Default()
	for cmd, want := range map[string]Decision{
		"valgrind --leak-check=full go version":    Allow,
		"valgrind --leak-check=full rm -rf ~":      Deny,
		"valgrind --db-command='sh -c id' go test": Ask,
		"valgrind --log-file=/home/x.log go test":  Deny,
	} {
		if v := e.Check(Query{Kind: KindShell, Command: cmd, Context: ctx}); v.Decision != want {
			t.Errorf("%q: %s by %s (%s), want %s", cmd, v.Decision, v.Rule, v.Reason, want)
		}
	}
}

// lsof's port listings are read-only; repeat mode and files are not judged.
func TestLsofPortListings(t *testing.T) {
	ctx := testEnv(t)
	e := Default()
	for cmd, want := range map[string]Decision{"lsof -i :3000": Allow, "lsof -nP -iTCP:8080 -sTCP:LISTEN": Allow, "lsof +r 1 -i": Ask, "lsof -i :3000 -r": Ask} {
		if v := e.Check(Query{Kind: KindShell, Command: cmd, Context: ctx}); v.Decision != want {
			t.Errorf("%q: %s by %s, want %s", cmd, v.Decision, v.Rule, want)
		}
	}
}
