package policy

import "testing"

// TestLineBindingsAreWrittenIn: a command the line names through its own
// bindings is judged as the command bash runs (bindprop.go). Each of these
// asked as a dynamic command name before.
func TestLineBindingsAreWrittenIn(t *testing.T) {
	ctx := testEnv(t)
	ctx.Sandboxed = true
	e := Default()
	deny := []string{
		`printf -v c rm; $c -rf ~`,
		`printf -v c '%s' r m; $c -rf ~`,
		`set -- rm -rf ~; "$@"`,
		`set -- git push --force origin main; "$@"`,
		`read -r c <<< rm; $c -rf ~`,
		`read -r c a <<< "rm -rf"; $c $a ~`,
		`read -ra a <<< "rm -rf /"; "${a[@]}"`,
		`declare c=rm; $c -rf ~`,
		`local c=rm; $c -rf ~`,
		`typeset c=rm; $c -rf ~`,
		`export c=rm; $c -rf ~`,
		`readonly c=rm && $c -rf ~`,
		`declare -a cmd=(rm -rf ~); "${cmd[@]}"`,
		`cmd=(rm -rf ~); "${cmd[@]}"`,
		`cmd=(rm -rf); cmd+=(~); ${cmd[*]}`,
		"mapfile -t a <<'X'\nrm\nX\n${a[0]} -rf ~",
		`readarray -t a <<< rm; "${a[0]}" -rf ~`,
		`cmd="npm publish"; $cmd`,
		`H=$HOME; rm -rf "$H"`,
		`d="$HOME/.ssh"; rm -rf "$d"`,
		"alias g=git\ng push --force origin main",
		`eval "$(printf 'r%s -rf ~' m)"`,
		`$(printf '\x72\x6d') -rf ~`,
		`$(which rm) -rf ~`,
		`"$(command -v git)" push -f`,
		`rm -rf "$PWD/.."`,
		`rm -rf $(dirname $PWD)`,
		`sh -c '$0 -rf ~' rm`,
		`bash -c '"$@"' _ rm -rf ~`,
		`bash -c '$1 $2 /' _ rm -rf`,
	}
	for _, cmd := range deny {
		if v := e.Check(Query{Kind: KindShell, Command: cmd, Context: ctx}); v.Decision != Deny {
			t.Errorf("%q: %s by %s (%s), want deny", cmd, v.Decision, v.Rule, v.Reason)
		}
	}
	// Bindings that name the workspace's own work stay what they were.
	for _, cmd := range []string{
		`c=go; $c test ./...`,
		`set -- ./...; go vet "$@"`,
		`read -r b <<< main; git log "$b"`,
		`args=(-count=1 ./...); go test "${args[@]}"`,
		`printf -v d build; ls "$d"`,
	} {
		if v := e.Check(Query{Kind: KindShell, Command: cmd, Context: ctx}); v.Decision == Deny {
			t.Errorf("%q: denied by %s (%s)", cmd, v.Rule, v.Reason)
		}
	}
}
