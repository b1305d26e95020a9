package policy

import "testing"

// TestWorkDirAndTargetNameOptions holds polcorp14's class: a build tool's
// working-directory option naming a folder of the workspace, and swift's
// (deno compile's) --target naming a target or triple, decide as the same
// line without the option does, with the sandbox on and off and in place;
// a folder outside the workspace, or a --target value that is a path or
// not static, is never allowed.
func TestWorkDirAndTargetNameOptions(t *testing.T) {
	ctx := testEnv(t)
	e := Default()
	on := ctx
	on.Sandboxed = true
	inPlace := ctx
	inPlace.InPlace = true
	same := [][2]string{
		{"composer install --working-dir tools/phpstan", "composer install"},
		{"composer --working-dir=tools/phpstan install", "composer install"},
		{"composer -d tools/phpstan analyse", "composer analyse"},
		{"composer -d tools/phpstan install; echo EXIT=$?", "composer install; echo EXIT=$?"},
		{"poetry -C backend run pytest", "poetry run pytest"},
		{"poetry --directory=backend install", "poetry install"},
		{"uv --directory backend run pytest -q", "uv run pytest -q"},
		{"uv --project backend sync", "uv sync"},
		{"rake -C app test", "rake test"},
		{"swift build --target MyTarget", "swift build"},
		{"swift test --target CoreTests --parallel", "swift test --parallel"},
		{"swift build --target=MyTarget -c release", "swift build -c release"},
		{"deno compile --target x86_64-unknown-linux-gnu main.ts", "deno compile main.ts"},
	}
	for _, p := range same {
		for _, cx := range []Context{on, ctx, inPlace} {
			got := e.Check(Query{Kind: KindShell, Command: p[0], Context: cx})
			want := e.Check(Query{Kind: KindShell, Command: p[1], Context: cx})
			if got.Decision != want.Decision {
				t.Errorf("sandbox %v in place %v: %q: %s by %s (%s); %q: %s", cx.Sandboxed, cx.InPlace, p[0], got.Decision, got.Rule, got.Reason, p[1], want.Decision)
			}
		}
		if v := e.Check(Query{Kind: KindShell, Command: p[0], Context: on}); v.Decision != Allow && p[0][:4] != "rake" {
			t.Errorf("sandbox on: %q: %s by %s (%s), want allow", p[0], v.Decision, v.Rule, v.Reason)
		}
	}
	unsafe := []string{
		"composer -d ~ install", "composer --working-dir=/etc install", "composer -d ../other install", "composer -d $HOME install",
		"composer -d ~/.config/composer global require x/y", "poetry -C ~ run pytest", "uv --directory ~/.local run x",
		"uv --project=/ run pytest", "rake -C .. db:drop", "swift build --target ../x", "swift build --target=/tmp/x",
		"swift build --target $T", "deno compile --target ../x main.ts", "swift build --target ~",
		"composer -d tools/phpstan config --global repo.x vcs https://x.example", "composer --working-dir=tools/phpstan exec -- sh -c 'rm -rf ~'",
	}
	for _, cmd := range unsafe {
		for _, cx := range []Context{on, ctx, inPlace} {
			if v := e.Check(Query{Kind: KindShell, Command: cmd, Context: cx}); v.Decision == Allow {
				t.Errorf("sandbox %v in place %v: %q allowed by %s (%s)", cx.Sandboxed, cx.InPlace, cmd, v.Rule, v.Reason)
			}
		}
	}
}
