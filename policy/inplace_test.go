package policy

import "testing"

// TestInTreeDestructionByPlace: in a disposable copy, deleting or
// discarding files below the tree is workspace work (consistently:
// git reset --hard like git checkout ., rm -rf tests/x like git rm -r);
// in place the same lines ask, naming the person's files, unless a
// checkpoint covers the place; deleting the tree or a top-level directory
// asks everywhere; dropping a database asks everywhere.
func TestInTreeDestructionByPlace(t *testing.T) {
	ctx := testEnv(t)
	e := Default()
	discard := []string{
		"rm -rf tests/x",
		"rm src/a.go",
		"git rm -r tests/x",
		"git rm -f src/a.go",
		"git checkout .",
		"git checkout -- src/a.go",
		"git checkout src/a.go",
		"git restore src/a.go",
		"git restore -SW src/a.go",
		"git reset --hard",
		"git reset --hard HEAD",
		"git stash drop",
		"git switch -f main",
	}
	everywhereAsk := []string{"git clean -fdx", "git reset --hard HEAD~3", "rm -rf src", "rm -rf .", "rm -rf *"}
	databases := []string{"python manage.py flush", "python3 manage.py reset_db", "rails db:drop", "bin/rails db:reset",
		"rake db:drop", "bundle exec rake db:drop", "php artisan migrate:fresh", "mix ecto.reset", "npx prisma migrate reset",
		"uv run python manage.py flush", "dotnet ef database drop"}
	safeInPlace := []string{"git checkout main", "git checkout -b feature", "git restore --staged src/a.go", "git rm --cached src/a.go", "rm -rf node_modules", "git stash"}
	for _, sb := range []bool{true, false} {
		cp := ctx
		cp.Sandboxed = sb
		in := cp
		in.InPlace = true
		ck := in
		ck.Checkpointed = true
		checkDiscardsByPlace(t, e, cp, discard)
		for _, l := range everywhereAsk {
			for _, cx := range []Context{cp, in, ck} {
				if v := e.Check(Query{Kind: KindShell, Command: l, Context: cx}); v.Decision == Allow {
					t.Errorf("%+v: %q ALLOWED by %s (%s)", cx, l, v.Rule, v.Reason)
				}
			}
		}
		for _, l := range databases {
			for _, cx := range []Context{cp, in, ck} {
				if v := e.Check(Query{Kind: KindShell, Command: l, Context: cx}); v.Decision != Ask || v.Rule != RuleDatabaseDrop {
					t.Errorf("sandbox %v in place %v: %q: %s by %s (%s), want ask by %s", sb, cx.InPlace, l, v.Decision, v.Rule, v.Reason, RuleDatabaseDrop)
				}
			}
		}
		for _, l := range safeInPlace {
			if v := e.Check(Query{Kind: KindShell, Command: l, Context: in}); v.Rule == RuleInPlaceUncommitted {
				t.Errorf("in place (sandbox %v): %q asked as discarding work (%s)", sb, l, v.Reason)
			}
		}
	}
}

// checkDiscardsByPlace checks that each line, which discards work of the
// tree, is allowed in the copy cp, asks in place without a checkpoint
// (inplace.uncommitted) and is allowed in place with one.
func checkDiscardsByPlace(t *testing.T, e *Engine, cp Context, lines []string) {
	t.Helper()
	in := cp
	in.InPlace = true
	ck := in
	ck.Checkpointed = true
	for _, l := range lines {
		if v := e.Check(Query{Kind: KindShell, Command: l, Context: cp}); v.Decision != Allow {
			t.Errorf("copy (sandbox %v): %q: %s by %s (%s), want allow", cp.Sandboxed, l, v.Decision, v.Rule, v.Reason)
		}
		if v := e.Check(Query{Kind: KindShell, Command: l, Context: in}); v.Decision != Ask || v.Rule != RuleInPlaceUncommitted {
			t.Errorf("in place (sandbox %v): %q: %s by %s (%s), want ask by %s", cp.Sandboxed, l, v.Decision, v.Rule, v.Reason, RuleInPlaceUncommitted)
		}
		if v := e.Check(Query{Kind: KindShell, Command: l, Context: ck}); v.Decision != Allow {
			t.Errorf("in place, checkpointed (sandbox %v): %q: %s by %s (%s), want allow", cp.Sandboxed, l, v.Decision, v.Rule, v.Reason)
		}
	}
}
