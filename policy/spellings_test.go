package policy

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Alternative spellings of the same command, generated mechanically from
// every deny and ask row of the adversarial corpora: bash runs the same
// program with the same arguments (or a stricter reading of it), so the
// variant must never be decided more permissively than the original.
// Wrappers (command, env, nice, timeout, nohup, sh -c, bash -c, eval,
// subshell, brace group, find -exec), quoting of the command word ('rm',
// "rm", r''m, \rm, $'rm'), absolute paths (/bin/rm), backslash-newline,
// ${IFS}, brace expansion {a,b}, --opt=val as --opt val, long-option
// prefixes, chains (true && X, X; true, false || X), git -c and the
// python/python3 aliases.

// rank orders decisions from the most permissive.
func rank(d Decision) int {
	switch d {
	case Allow:
		return 0
	case Ask:
		return 1
	}
	return 2
}

type spelling struct{ kind, cmd string }

func shQuote(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }

// spellWords splits a line made of plain words only (no quoting,
// expansion or operators); ok is false for anything else.
func spellWords(line string) ([]string, bool) {
	if strings.ContainsAny(line, "'\"\\$`;&|<>(){}[]*?!#~\n\t=") {
		return nil, false
	}
	f := strings.Fields(line)
	return f, len(f) > 0
}

// optionalValue are long options whose value is optional: "--opt val" is
// the option alone and an operand, not the same command (git --exec-path
// alone prints the path and exits).
var optionalValue = map[string]bool{"--exec-path": true, "--color": true, "--abbrev": true, "--decorate": true,
	"--word-diff": true, "--stat": true, "--dirstat": true, "--relative": true, "--ignore-submodules": true}

func spellings(line string) []spelling {
	var out []spelling
	add := func(kind, cmd string) { out = append(out, spelling{kind, cmd}) }
	single := !strings.ContainsAny(line, ";&|\n")
	// Whole-line wrappers: bash runs the same text.
	add("sh -c", "sh -c "+shQuote(line))
	add("bash -c", "bash -c "+shQuote(line))
	add("eval", "eval "+shQuote(line))
	add("subshell", "( "+line+" )")
	if !strings.Contains(line, "\n") {
		add("brace group", "{ "+line+"; }")
	}
	add("true &&", "true && "+line)
	add("false ||", "false || "+line)
	add("; true", line+"; true")
	// The first word: only when the line starts with a plain command word.
	first, rest, _ := strings.Cut(line, " ")
	if single && first != "" && strings.Trim(first, "abcdefghijklmnopqrstuvwxyz0123456789-_.") == "" && !strings.Contains(first, "=") {
		for _, w := range []string{"command", "env", "nice", "nohup", "timeout 60", "exec", "builtin command", "env -i PATH=/usr/bin:/bin", "stdbuf -o0", "time"} {
			add(w, w+" "+line)
		}
		add("quoted 'x'", "'"+first+"' "+rest)
		add(`quoted "x"`, `"`+first+`" `+rest)
		add("empty quotes", first[:1]+"''"+first[1:]+" "+rest)
		add("backslash", `\`+first+" "+rest)
		add("ansi-c", "$'"+first+"' "+rest)
		add("backslash-newline", first+" \\\n"+rest)
		add("IFS", first+"${IFS}"+rest)
		for _, dir := range []string{"/bin/", "/usr/bin/", "/usr/local/bin/"} {
			if _, err := os.Stat(dir + first); err == nil {
				add("absolute path", dir+first+" "+rest)
				break
			}
		}
		switch first {
		case "python":
			add("alias python3", "python3 "+rest)
		case "python3":
			add("alias python", "python "+rest)
		case "git":
			add("git -c", "git -c color.ui=never "+rest)
			add("git --no-pager", "git --no-pager "+rest)
		}
		if ws, ok := spellWords(line); ok && len(ws) > 1 {
			add("brace expansion", "{"+strings.Join(ws, ",")+"}")
			add("find -exec", "find . -maxdepth 0 -exec "+line+" \\;")
		}
	}
	// Options: --opt=val as --opt val, and a long option cut to a prefix.
	if single {
		words := strings.Fields(line)
		for i, w := range words {
			if !strings.HasPrefix(w, "--") || len(w) < 4 || strings.ContainsAny(w, "'\"$`\\") {
				continue
			}
			if k, v, ok := strings.Cut(w, "="); ok && v != "" && !optionalValue[k] {
				sp := append(append(append([]string{}, words[:i]...), k, v), words[i+1:]...)
				add("--opt val", strings.Join(sp, " "))
			} else if len(w) > 6 {
				sp := append(append(append([]string{}, words[:i]...), w[:len(w)-1]), words[i+1:]...)
				add("long-option prefix", strings.Join(sp, " "))
			}
		}
	}
	return out
}

// TestSpellingsNeverMorePermissive is the metamorphic test over every
// deny and ask row of the adversarial corpora, with the sandbox on and off.
func TestSpellingsNeverMorePermissive(t *testing.T) {
	t.Parallel()             // see heavy_parallel_test.go
	if sweptOutsideRace(t) { // sweep_outside_race_test.go
		return
	}
	ctx := testEnv(t)
	on, off := ctx, ctx
	on.Sandboxed = true
	e := Default()
	files, _ := filepath.Glob("testdata/*adversarial*.txt")
	files = append(files, "testdata/bypass_classes.txt")
	var n, toAllow, weaker int
	kinds := map[string]int{}
	for _, f := range files {
		for _, c := range readCorpus(t, filepath.Base(f)) {
			for _, cx := range []Context{on, off} {
				if c.expect == "!allow-inplace" {
					cx.InPlace = true
				}
				orig := e.Check(Query{Kind: KindShell, Command: c.cmd, Context: cx}).Decision
				if orig == Allow {
					continue
				}
				for _, s := range spellings(c.cmd) {
					n++
					v := e.Check(Query{Kind: KindShell, Command: s.cmd, Context: cx})
					if rank(v.Decision) >= rank(orig) {
						continue
					}
					if v.Decision == Allow {
						toAllow++
						t.Errorf("%s:%d (sandbox %v) %s: %q is %s but %q is ALLOWED by %s (%s)", filepath.Base(f), c.line, cx.Sandboxed, s.kind, c.cmd, orig, s.cmd, v.Rule, v.Reason)
						continue
					}
					weaker++
					kinds[s.kind]++
					t.Logf("%s:%d (sandbox %v) %s: %q is %s but %q is %s by %s", filepath.Base(f), c.line, cx.Sandboxed, s.kind, c.cmd, orig, s.cmd, v.Decision, v.Rule)
				}
			}
		}
	}
	t.Logf("%d spellings of deny/ask rows judged; %d became allow, %d went from deny to ask %v", n, toAllow, weaker, kinds)
	if n < 1000 {
		t.Fatalf("only %d spellings generated: the generator lost its input", n)
	}
}
