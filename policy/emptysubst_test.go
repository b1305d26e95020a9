package policy

import "testing"

// TestEmptySubstitutionInADestructiveArgument holds the class of issue
// 32: a substitution written inline in a path a delete or overwrite is
// given is judged also with the substitution empty (its producer failed),
// and asks when that path leaves the workspace; everyday uses of the same
// producers stay allowed.
func TestEmptySubstitutionInADestructiveArgument(t *testing.T) {
	ctx := testEnv(t)
	e := Default()
	on := ctx
	on.Sandboxed = true
	unsafe := []string{
		`rm -rf "$(git rev-parse --show-toplevel)/build"`,
		`rm -rf $(git rev-parse --show-toplevel)/build`,
		`rm -rf "$(pwd)/build"`,
		`rm -fr -- "$(git rev-parse --show-toplevel)/dist"`,
		`ROOT="$(git rev-parse --show-toplevel)" && rm -rf "$ROOT/dist"`,
		`cp a "$(git rev-parse --show-toplevel)/bin/a"`,
		`mv a "$(pwd)/b"`,
		`dd if=/dev/zero of="$(pwd)/disk.img" bs=1M count=1`,
		`echo x | tee "$(git rev-parse --show-toplevel)/VERSION"`,
	}
	for _, cmd := range unsafe {
		for _, cx := range []Context{on, ctx} {
			if v := e.Check(Query{Kind: KindShell, Command: cmd, Context: cx}); v.Decision == Allow {
				t.Errorf("sandbox %v: %q allowed by %s (%s), want ask", cx.Sandboxed, cmd, v.Rule, v.Reason)
			}
		}
	}
	everyday := []string{
		`cd "$(git rev-parse --show-toplevel)" && make test`,
		`cd "$(git rev-parse --show-toplevel)" && rm -rf build`,
		`git diff $(git merge-base main HEAD)`,
		`git log --author="$(git config user.name)" --since=1.week --oneline`,
		`make -j$(nproc)`,
		`ls "$(git rev-parse --show-toplevel)/src"`,
		`cat "$(git rev-parse --show-toplevel)/README.md"`,
	}
	for _, cmd := range everyday {
		for _, cx := range []Context{on, ctx} {
			if v := e.Check(Query{Kind: KindShell, Command: cmd, Context: cx}); v.Decision != Allow {
				t.Errorf("sandbox %v: %q: got %s by %s (%s), want allow", cx.Sandboxed, cmd, v.Decision, v.Rule, v.Reason)
			}
		}
	}
}
