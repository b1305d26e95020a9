package policy

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"mvdan.cc/sh/v3/syntax"
)

// TestRespellingsNeverAllow takes every line of every corpus that the
// engine denies or asks (sandbox on and off) and writes it again the way
// bash reads the same: a word quoted ('rm', "rm", r”m), a character
// escaped (\rm, r\m), ANSI-C quoting ($'rm', $'\x72m'), a wrapper that
// changes nothing (command, env, builtin for builtins), the program by
// its full path (/usr/bin/rm), brace expansion ({rm,-rf,~}, {rm,}),
// other blanks (tabs, doubled spaces), `;` as a newline, and GNU long
// options abbreviated (--force → --forc). None may turn into an allow
// (issue 32: 266 alternative spellings in the independent check). Run it
// with
//
//	go test -run TestRespellingsNeverAllow -v ./policy/
func TestRespellingsNeverAllow(t *testing.T) {
	t.Parallel()             // see heavy_parallel_test.go
	if sweptOutsideRace(t) { // sweep_outside_race_test.go
		return
	}
	ctx := testEnv(t)
	e := Default()
	files, _ := filepath.Glob(filepath.Join("testdata", "*.txt"))
	if len(files) == 0 {
		t.Fatal("no corpora in testdata")
	}
	rows, variants, fails := 0, 0, 0
	for _, f := range files {
		for _, c := range readCorpus(t, filepath.Base(f)) {
			if c.expect == "allow" {
				continue
			}
			for _, sandboxed := range []bool{true, false} {
				cx := ctx
				cx.Sandboxed = sandboxed
				if e.Check(Query{Kind: KindShell, Command: c.cmd, Context: cx}).Decision == Allow {
					continue // not a deny or ask line in this mode
				}
				rows++
				for _, r := range respell(c.cmd) {
					variants++
					if v := e.Check(Query{Kind: KindShell, Command: r.text, Context: cx}); v.Decision == Allow {
						fails++
						t.Errorf("%s:%d (sandbox %v) %q respelled by %s as %q is ALLOWED: %s: %s",
							filepath.Base(f), c.line, sandboxed, c.cmd, r.how, r.text, v.Rule, v.Reason)
					}
				}
			}
		}
	}
	t.Logf("%d deny/ask lines, %d respellings, %d allowed", rows, variants, fails)
	if variants < 1000 {
		t.Errorf("only %d respellings made; the generator lost its grip on the corpora", variants)
	}
}

type respelling struct{ how, text string }

// bashBuiltins are the builtins `builtin X` runs.
var respellBuiltins = map[string]bool{"cd": true, "echo": true, "eval": true, "source": true, ".": true, "export": true,
	"printf": true, "read": true, "set": true, "declare": true, "exec": true, "command": true, "type": true, "alias": true,
	"unset": true, "local": true, "readonly": true, "typeset": true, "mapfile": true, "trap": true, "hash": true, "enable": true}

// respell returns mechanical re-spellings of text that bash runs the same.
func respell(text string) []respelling {
	f, err := syntax.NewParser().Parse(strings.NewReader(text), "")
	if err != nil {
		return nil
	}
	var out []respelling
	add := func(how string, at, end int, repl string) {
		out = append(out, respelling{how, text[:at] + repl + text[end:]})
	}
	calls := 0
	syntax.Walk(f, func(n syntax.Node) bool {
		call, ok := n.(*syntax.CallExpr)
		if !ok || len(call.Args) == 0 || calls >= 4 {
			return true
		}
		calls++
		w := call.Args[0]
		lit := w.Lit()
		at, end := int(w.Pos().Offset()), int(w.End().Offset())
		if lit != "" && !strings.ContainsAny(lit, "{},'\"\\$") {
			add("single quotes", at, end, "'"+lit+"'")
			add("double quotes", at, end, `"`+lit+`"`)
			add("backslash first", at, end, `\`+lit)
			add("ANSI-C quotes", at, end, "$'"+lit+"'")
			add("ANSI-C hex", at, end, fmt.Sprintf(`$'\x%02x'`, lit[0])+lit[1:])
			add("brace with empty", at, end, "{"+lit+",}")
			if len(lit) > 1 {
				add("empty quotes inside", at, end, lit[:1]+"''"+lit[1:])
				add("backslash inside", at, end, lit[:1]+`\`+lit[1:])
			}
			if !strings.Contains(lit, "/") && !strings.Contains(lit, "=") {
				add("command prefix", at, at, "command ")
				add("env prefix", at, at, "env ")
				add("full path", at, end, "/usr/bin/"+lit)
				if respellBuiltins[lit] {
					add("builtin prefix", at, at, "builtin ")
				}
			}
			if len(call.Args) > 1 {
				nx := int(call.Args[1].Pos().Offset())
				add("tab and spaces", end, nx, " \t  ")
			}
			// the whole command as one brace expansion: {rm,-rf,~}
			plain := len(call.Assigns) == 0 && len(call.Args) > 1
			var ws []string
			for _, a := range call.Args {
				l := a.Lit()
				if l == "" || strings.ContainsAny(l, "{},'\"\\$*?[") {
					plain = false
					break
				}
				ws = append(ws, l)
			}
			if plain {
				add("brace expansion", at, int(call.Args[len(call.Args)-1].End().Offset()), "{"+strings.Join(ws, ",")+"}")
			}
		}
		for _, a := range call.Args[1:] {
			l := a.Lit()
			aa, ae := int(a.Pos().Offset()), int(a.End().Offset())
			if name, val, hasVal := strings.Cut(strings.TrimPrefix(l, "--"), "="); strings.HasPrefix(l, "--") && len(name) >= 5 && !strings.ContainsAny(l, "'\"\\$") {
				abbr := "--" + name[:len(name)-1]
				if hasVal {
					abbr += "=" + val
				}
				add("long option abbreviated", aa, ae, abbr)
			}
			if l != "" && !strings.ContainsAny(l, "'\"\\$*?[{}~") && !strings.HasPrefix(l, "-") {
				add("argument quoted", aa, ae, "'"+l+"'")
			}
		}
		return true
	})
	// Session 5 classes (heldout3): the whole line run by a program that
	// hands text to /bin/sh (awk system(), sqlite3 .shell, psql \!, nix
	// develop -c), its output passed on whole (| cat), and its last
	// argument moved to a producer feeding xargs.
	if len(f.Stmts) == 1 && !strings.ContainsAny(text, "'\"\\\n") {
		out = append(out,
			respelling{"awk system()", `awk 'BEGIN{system("` + text + `")}'`},
			respelling{"sqlite3 .shell", "sqlite3 :memory: '.shell " + text + "'"},
			respelling{"psql \\!", "psql -c '\\! " + text + "'"},
			respelling{"nix develop -c", "nix develop -c " + text})
	}
	if len(f.Stmts) == 1 {
		out = append(out, respelling{"piped through cat", text + " | cat"})
		if call, ok := f.Stmts[0].Cmd.(*syntax.CallExpr); ok && len(call.Assigns) == 0 && len(call.Args) > 2 && len(f.Stmts[0].Redirs) == 0 {
			last := call.Args[len(call.Args)-1]
			if l := last.Lit(); l != "" && !strings.HasPrefix(l, "-") && !strings.ContainsAny(l, "'\"\\$*?[{}") && call.Args[0].Lit() != "" {
				head := strings.TrimSpace(text[call.Args[0].Pos().Offset():last.Pos().Offset()])
				out = append(out, respelling{"echo | xargs", "echo " + l + " | xargs " + head},
					respelling{"printf | xargs -r", `printf '%s\n' ` + l + " | xargs -r " + head})
			}
		}
	}
	// `;` between statements as a newline
	if len(f.Stmts) > 1 {
		var parts []string
		for _, st := range f.Stmts {
			s := strings.TrimSpace(text[st.Pos().Offset():st.End().Offset()])
			parts = append(parts, strings.TrimSuffix(s, ";"))
		}
		out = append(out, respelling{"newlines for ;", strings.Join(parts, "\n")})
	}
	return out
}

// TestRespellGenerator checks the generator itself on a line.
func TestRespellGenerator(t *testing.T) {
	one := map[string]bool{}
	for _, r := range respell("rm -rf ~/.ssh") {
		one[r.text] = true
	}
	for _, want := range []string{`awk 'BEGIN{system("rm -rf ~/.ssh")}'`, "sqlite3 :memory: '.shell rm -rf ~/.ssh'", `psql -c '\! rm -rf ~/.ssh'`,
		"nix develop -c rm -rf ~/.ssh", "rm -rf ~/.ssh | cat", "echo ~/.ssh | xargs rm -rf", `printf '%s\n' ~/.ssh | xargs -r rm -rf`} {
		if !one[want] {
			t.Errorf("respell did not make %q", want)
		}
	}
	got := map[string]bool{}
	for _, r := range respell("rm -rf --no-preserve-root ~; ls") {
		got[r.text] = true
	}
	for _, want := range []string{"'rm' -rf --no-preserve-root ~; ls", "r\\m -rf --no-preserve-root ~; ls", "$'\\x72'm -rf --no-preserve-root ~; ls",
		"command rm -rf --no-preserve-root ~; ls", "/usr/bin/rm -rf --no-preserve-root ~; ls", "rm -rf --no-preserve-roo ~; ls",
		"rm -rf --no-preserve-root ~\nls", "{rm,} -rf --no-preserve-root ~; ls", "rm \t  -rf --no-preserve-root ~; ls"} {
		if !got[want] {
			t.Errorf("respell did not make %q", want)
		}
	}
	if os.Getenv("RESPELL_SHOW") != "" {
		for k := range got {
			t.Log(k)
		}
	}
}
