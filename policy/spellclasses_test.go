package policy

import "testing"

// The classes TestMetamorphicSpellingsNeverAllow found (issue 32), one
// case or more per class, each fixed in the engine and not by row.
func TestSpellingClassesNeverAllow(t *testing.T) {
	ctx := testEnv(t)
	e := Default()
	for _, c := range []struct{ class, cmd string }{
		// A command word that is a static substitution is the program for
		// every reader of the call (rules on Argv, dumps, database drops,
		// secret writes), not only for the command's own handler.
		{"substituted command word", "$(echo make) -p"},
		{"substituted command word", "`echo make` -p -f /dev/null | grep KEY > leaked.txt"},
		{"substituted command word", "$(echo python3) manage.py flush --noinput"},
		{"substituted command word", `"$(printf php)" artisan migrate:fresh --force`},
		{"substituted command word", `$(echo cat) <<< "$ANTHROPIC_API_KEY" > k.txt`},
		// find runs -exec on its starting point itself first (depth 0).
		{"find -exec on the start path", `find .pnpmfile.cjs -maxdepth 0 -exec cp /tmp/hook.cjs {} \;`},
		{"find -exec on the start path", "find ~/.bashrc -prune -exec sed -i s/a/b/ {} +"},
		// xargs fed by printf '%s\0' with -0, or named by its path or quoted.
		{"xargs -0 and xargs by path", `printf '%s\0' ~/.bashrc | xargs -0 sed -i s/a/b/`},
		{"xargs -0 and xargs by path", `printf '%s\n' /etc/hosts | /usr/bin/xargs sed -i s/x/y/`},
		{"xargs -0 and xargs by path", `echo ~/.bashrc | 'xargs' -r sed -i s/a/b/`},
		// standard input by another spelling of its path.
		{"stdin path spelled otherwise", "make -f //dev/stdin <<< $'all:\\n\\tid'"},
		{"stdin path spelled otherwise", "make -f /dev/./stdin <<< $'all:\\n\\tid'"},
		{"stdin path spelled otherwise", "make -f /dev/../dev/stdin <<< $'all:\\n\\tid'"},
		{"stdin path spelled otherwise", "make -f /dev/stdin/ <<< $'all:\\n\\tid'"},
		// an expansion among a wrapper's options splits into its command.
		{"expansion in a wrapper's options", "nice -n${IFS}10${IFS}rm${IFS}-rf${IFS}/"},
		{"expansion in a wrapper's options", "stdbuf -o0${IFS}git${IFS}push${IFS}--force${IFS}origin${IFS}main"},
		{"expansion in a wrapper's options", "xargs -I%${IFS}bash${IFS}-c${IFS}% < x"},
		{"expansion in a wrapper's options", "exec -a${IFS}ls${IFS}rm${IFS}-rf${IFS}~"},
		// timeout $T go test: a duration from the environment is fine
		// (wrapduration.go), one the line sets or reads is not.
		{"expansion in a wrapper's options", "read T; timeout $T go test ./..."},
		{"expansion in a wrapper's options", "T='5 rm -rf /'; timeout $T go test ./..."},
		{"expansion in a wrapper's options", "timeout ${T:=5} go test ./..."},
		{"expansion in a wrapper's options", "timeout $(printf 5) go test ./..."},
	} {
		for _, sb := range []bool{true, false} {
			cx := ctx
			cx.Sandboxed = sb
			if v := e.Check(Query{Kind: KindShell, Command: c.cmd, Context: cx}); v.Decision == Allow {
				t.Errorf("%s: %q (sandbox %v) is ALLOWED by %s: %s", c.class, c.cmd, sb, v.Rule, v.Reason)
			}
		}
	}
	// and what stays everyday
	for _, cmd := range []string{"timeout 5 go test ./...", "nice -n 10 go build ./...", "find . -name '*.go' -exec gofmt -l {} +",
		"printf '%s\\0' a.go b.go | xargs -0 gofmt -l", "$(echo go) test ./..."} {
		cx := ctx
		cx.Sandboxed = true
		if v := e.Check(Query{Kind: KindShell, Command: cmd, Context: cx}); v.Decision != Allow {
			t.Errorf("everyday %q is %s by %s: %s", cmd, v.Decision, v.Rule, v.Reason)
		}
	}
}
