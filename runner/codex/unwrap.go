package codex

import (
	"path"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// loginShells are the shells Codex wraps every command in.
var loginShells = map[string]bool{"bash": true, "sh": true, "zsh": true, "dash": true}

// shellDirs are where a path-qualified login shell may live.
var shellDirs = map[string]bool{"": true, "/bin": true, "/usr/bin": true, "/usr/local/bin": true}

// UnwrapShell returns the script of Codex's own shell wrapper. Codex 0.171
// reports every exec_command as `/bin/bash -lc '<the model's cmd>'`; the
// policy would see only a path-qualified bash (ask) and never the script,
// so the broker is asked about the script itself. Only an exact
// `<shell> -c|-lc <one literal word>` is unwrapped (a shell from shellDirs,
// the script in plain, single or double quotes without expansions);
// anything else comes back unchanged, and is judged as it stands.
func UnwrapShell(command string) (string, bool) {
	f, err := syntax.NewParser().Parse(strings.NewReader(command), "")
	if err != nil || len(f.Stmts) != 1 {
		return command, false
	}
	st := f.Stmts[0]
	if st.Negated || st.Background || st.Coprocess || len(st.Redirs) > 0 {
		return command, false
	}
	call, ok := st.Cmd.(*syntax.CallExpr)
	if !ok || len(call.Assigns) > 0 || len(call.Args) != 3 {
		return command, false
	}
	var words [3]string
	for i, w := range call.Args {
		s, ok := literal(w)
		if !ok {
			return command, false
		}
		words[i] = s
	}
	dir, base := path.Split(words[0])
	if !loginShells[base] || !shellDirs[strings.TrimSuffix(dir, "/")] {
		return command, false
	}
	if words[1] != "-c" && words[1] != "-lc" {
		return command, false
	}
	if strings.TrimSpace(words[2]) == "" {
		return command, false
	}
	return words[2], true
}

// literal is a word's value when it has no expansions: plain text, single
// quotes, and double quotes holding only text.
func literal(w *syntax.Word) (string, bool) {
	var b strings.Builder
	for _, p := range w.Parts {
		switch p := p.(type) {
		case *syntax.Lit:
			if strings.ContainsAny(p.Value, `\`) {
				return "", false
			}
			b.WriteString(p.Value)
		case *syntax.SglQuoted:
			if p.Dollar {
				return "", false
			}
			b.WriteString(p.Value)
		case *syntax.DblQuoted:
			if p.Dollar {
				return "", false
			}
			for _, q := range p.Parts {
				l, ok := q.(*syntax.Lit)
				if !ok || strings.ContainsAny(l.Value, `\`) {
					return "", false
				}
				b.WriteString(l.Value)
			}
		default:
			return "", false
		}
	}
	return b.String(), true
}
