package policy

import "testing"

// TestRedirectEmptiesTreeFile: a truncating redirect on nothing, or on a
// command that writes nothing, empties a file of the tree as truncate -s 0
// does; so do cp/install of /dev/null, dd of nothing and tee of /dev/null. In a disposable copy that is workspace work; in place, without a
// checkpoint, it asks (inplace.uncommitted); with one it is allowed. A
// command that writes output into the file, an append, a redirect to
// /dev/null or a group's redirect stay writes (polcorp10: "> src/main.rs").
func TestRedirectEmptiesTreeFile(t *testing.T) {
	ctx := testEnv(t)
	e := Default()
	empties := []string{
		"> src/main.rs",
		"> src/a.go",
		">| src/a.go",
		"&> src/a.go",
		"2> src/a.go",
		": > src/a.go",
		"true > README.md",
		"false >src/a.go",
		"cat /dev/null > src/a.go",
		"echo -n > src/a.go",
		"printf '' > src/a.go",
		"printf %s > main.go",
		"cd src && > a.go",
		"ls && : > go.mod",
		"> a > b",
		"cp /dev/null src/a.go",
		"cp -f /dev/null main.go",
		"install -m 644 /dev/null src/a.go",
		"dd if=/dev/null of=src/a.go",
		"dd of=src/a.go count=0 status=none",
		"tee src/a.go < /dev/null",
		"tee src/a.go README.md </dev/null >/dev/null",
	}
	writes := []string{
		"echo x > src/a.go",
		"cat > src/a.go <<'EOF'\npackage a\nEOF",
		">> src/a.go",
		": >> src/a.go",
		"> /dev/null",
		": > /dev/null",
		"go test ./... > test.log 2>&1",
		"{ echo a; echo b; } > out.txt",
		"( printf 'x\\n' ) > out.txt",
		"cat README.md > copy.md",
		"echo -n x > src/a.go",
		"printf 'x' > src/a.go",
		"cp README.md src/a.go",
		"cp /dev/null",
		"dd if=README.md of=src/a.go",
		"dd if=/dev/null of=src/a.go conv=notrunc",
		"tee -a src/a.go < /dev/null",
		"echo x | tee src/a.go",
	}
	for _, sb := range []bool{true, false} {
		cp := ctx
		cp.Sandboxed = sb
		checkDiscardsByPlace(t, e, cp, empties)
		in := cp
		in.InPlace = true
		for _, l := range writes {
			for _, cx := range []Context{cp, in} {
				if v := e.Check(Query{Kind: KindShell, Command: l, Context: cx}); v.Rule == RuleInPlaceUncommitted {
					t.Errorf("%q (sandbox %v, in place %v): %s by %s (%s): a write, not emptying a file", l, sb, cx.InPlace, v.Decision, v.Rule, v.Reason)
				}
			}
		}
	}
}
