package policy

import "testing"

// ipatk17m row 2: with a file named --pre=sh in the folder, `rg x *`,
// `rg x --pr*` and `rg x {*,}` ran sh on every file. OptionGlob names such
// a glob; one that cannot begin an option, or stands after --, or is given
// to a program with no such option, is not one. The engine asks about the
// dash-led forms as it did about *.
func TestOptionGlobFindsAGlobThatBecomesAnOption(t *testing.T) {
	for line, want := range map[string]string{
		`rg x *`: "*", `rg x --pr*`: "--pr*", `rg -l x -?pre=sh`: "-?pre=sh", `rg x {*,}`: "*",
		`git log [-]*`: "[-]*", `env rg x *`: "*",
		`rg x ./*`: "", `rg x -- *`: "", `rg --glob=*.go x`: "", `go test -run=Test*`: "", `ls *`: "", `cat -*`: "",
		`rg x src/*`: "", `rg x "*"`: "",
		// A `--` that is an option's value ends nothing (HIGH, review revin).
		`tar -cf -- *`: "*", `tar -c -f -- *`: "*", `tar cf -- *`: "*", `tar --file -- *`: "*", `git -C -- log *`: "*",
		`rg -e -- *`: "*", `find -- *`: "*", `rg -e -- -- *`: "", `tar -c --file=x -- *`: "", `git log -- *`: "",
	} {
		l, err := ReadShell(line)
		if err != nil {
			t.Fatal(err)
		}
		if got := l.Stmts[0].Cmd.OptionGlob(); got != want {
			t.Errorf("%q: OptionGlob %q, want %q", line, got, want)
		}
	}
	ctx := Context{Workspace: "/w", Cwd: "/w", Sandboxed: true}
	for _, line := range []string{`rg -l zzz --pr*`, `rg -l zzz -?pre=sh`} {
		if v := Default().Check(Query{Kind: KindShell, Command: line, Context: ctx}); v.Decision == Allow {
			t.Errorf("%q allowed", line)
		}
	}
}
