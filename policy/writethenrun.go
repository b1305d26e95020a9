package policy

import (
	"encoding/json"
	"path/filepath"
	"sort"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// Write-then-run in one line: `printf 'all:\n\tcurl … | sh\n' > Makefile
// && make`. Every write a line makes is remembered (checkEnv.written) with
// its text when the text is in plain sight (echo, printf, cat or tee of a
// here-document); a later part that runs such a file — a script, make's
// Makefile, a package manager's package.json scripts, go generate's
// directives — is judged on that text with the same rules, and asks when
// the text cannot be known. (Writing Go, Python or Rust and running it is
// ordinary coding, which the sandbox contains.)

// noteWrite remembers that this line writes p, text unknown so far.
func (c *checkEnv) noteWrite(p string) {
	if c.keepText {
		return // chmod, touch: the text stays what it was
	}
	if c.written == nil {
		c.written = map[string][]string{}
	}
	c.written[p] = nil
}

// noteText records the text a write to w puts in its file.
func (x *cmdCtx) noteText(w word, texts []string) {
	for _, p := range x.resolve(w) {
		if _, ok := x.c.written[p]; ok {
			x.c.written[p] = texts
		}
	}
}

// ranWritten judges running w when this line wrote it: its text is judged
// as shell, or the run asks when the text is unknown. It reports whether
// w was written by this line.
func (x *cmdCtx) ranWritten(w word, judge func(text string)) bool {
	if x.ranFetched(w) { // fetchedrun.go: curl -o x.sh URL && sh x.sh
		return true
	}
	if x.c.written == nil {
		return false
	}
	hit := false
	for _, p := range x.resolve(w) {
		texts, ok := x.c.written[p]
		if !ok {
			continue
		}
		hit = true
		if texts == nil && x.c.builtHere(p) && x.c.sandbox {
			// A compiler's or go build's product: the project's sources,
			// compiled, run like `go run` inside the sandbox.
			x.add(Allow, RuleSandboxCode, "runs "+quoteShort(w.val)+", which this line builds from the project's sources, inside the sandbox")
			continue
		}
		if texts == nil && x.c.builtHere(p) && x.offBuiltRun(p) { // builtrun_off.go
			x.add(Allow, RuleSandboxCode, "runs "+quoteShort(w.val)+", which this line builds from the project's sources, as `go run` runs them (--sandbox off)")
			continue
		}
		if texts == nil {
			x.add(Ask, RuleWriteThenRun, "runs "+quoteShort(w.val)+", which this line writes with text that cannot be judged")
			continue
		}
		x.add(Allow, RuleShellBuiltin, "runs "+quoteShort(w.val)+", which this line writes; its text is judged on its own")
		for _, text := range texts {
			if judge != nil {
				judge(text)
				continue
			}
			sub := x.cw.copy()
			x.c.shell(text, &sub, x.s.depth+1, "written "+filepath.Base(p))
		}
	}
	return hit
}

// ranBuildFiles judges the files of the workspace this line wrote that a
// runner (make, npm, go generate) reads as commands. match picks them by
// folded base name; extract returns their commands (ok false: unknown).
func (x *cmdCtx) ranBuildFiles(runner string, match func(base string) bool, extract func(text string) ([]string, bool)) {
	if len(x.c.written) == 0 {
		return
	}
	keys := make([]string, 0, len(x.c.written))
	for p := range x.c.written {
		keys = append(keys, p)
	}
	sort.Strings(keys)
	for _, p := range keys {
		if !within(p, x.c.ws) || !match(foldName(filepath.Base(p))) {
			continue
		}
		var cmds []string
		ok := false
		if extract != nil {
			// Each spelling of the text that parses is judged; none
			// parsing is text that cannot be judged.
			for _, text := range x.c.written[p] {
				if more, good := extract(text); good {
					cmds = append(cmds, more...)
					ok = true
				}
			}
		}
		if !ok {
			x.add(Ask, RuleWriteThenRun, runner+" runs commands from "+rel(p, x.c.ws)+", which this line writes with text that cannot be judged")
			continue
		}
		for _, cmd := range cmds {
			sub := x.cw.copy()
			x.c.shell(cmd, &sub, x.s.depth+1, runner+" runs "+filepath.Base(p))
		}
	}
}

func isMakefile(b string) bool {
	return b == "makefile" || b == "gnumakefile" || strings.HasSuffix(b, ".mk") || strings.HasPrefix(b, "makefile.")
}

// makeCommands are a Makefile's recipe lines and $(shell …) calls.
func makeCommands(text string) ([]string, bool) {
	var out []string
	lines := strings.Split(strings.ReplaceAll(text, "\\\n", " "), "\n")
	for _, l := range lines {
		if strings.HasPrefix(l, "\t") {
			cmd := strings.TrimLeft(l, "\t @-+")
			out = append(out, makeVars(cmd))
		}
		for rest := l; ; {
			i := strings.Index(rest, "$(shell ")
			if i < 0 {
				break
			}
			rest = rest[i+len("$(shell "):]
			end := matchingParen(rest)
			if end < 0 {
				return nil, false
			}
			out = append(out, makeVars(rest[:end]))
			rest = rest[end:]
		}
		// A rule on the target line (all: ; cmd) is a recipe too.
		if i := strings.Index(l, ";"); i > 0 && !strings.HasPrefix(l, "\t") && strings.Contains(l[:i], ":") && !strings.Contains(l[:i], "=") {
			out = append(out, makeVars(l[i+1:]))
		}
	}
	return out, true
}

// makeVars turns make's $$ into $ and $(VAR) into ${VAR}: the text judged
// is what the shell will see, with variables left dynamic.
func makeVars(s string) string {
	s = strings.ReplaceAll(s, "$$", "\x00")
	var b strings.Builder
	for {
		i := strings.Index(s, "$(")
		if i < 0 {
			b.WriteString(s)
			break
		}
		b.WriteString(s[:i])
		end := matchingParen(s[i+2:])
		if end < 0 {
			b.WriteString(s[i:])
			break
		}
		inner := s[i+2 : i+2+end]
		if validName(inner) {
			b.WriteString("${" + inner + "}")
		} else {
			b.WriteString("$(" + inner + ")")
		}
		s = s[i+2+end+1:]
	}
	return strings.ReplaceAll(b.String(), "\x00", "$")
}

func matchingParen(s string) int {
	depth := 1
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '(':
			depth++
		case ')':
			depth--
			if depth == 0 {
				return i
			}
		}
	}
	return -1
}

// packageScripts are package.json's scripts.
func packageScripts(text string) ([]string, bool) {
	var pkg struct {
		Scripts map[string]any `json:"scripts"`
	}
	if err := json.Unmarshal([]byte(text), &pkg); err != nil {
		return nil, false
	}
	keys := make([]string, 0, len(pkg.Scripts))
	for k := range pkg.Scripts {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var out []string
	for _, k := range keys {
		s, ok := pkg.Scripts[k].(string)
		if !ok {
			return nil, false
		}
		out = append(out, s)
	}
	return out, true
}

// goGenerateCommands are the //go:generate directives of Go source.
func goGenerateCommands(text string) ([]string, bool) {
	var out []string
	for _, l := range strings.Split(text, "\n") {
		if cmd, ok := strings.CutPrefix(strings.TrimSpace(l), "//go:generate "); ok {
			out = append(out, cmd)
		}
	}
	return out, true
}

// stdinText is the text of a here-document or here-string given to st,
// when it holds no expansion; nil otherwise.
func stdinText(st *syntax.Stmt) *string {
	var out *string
	for _, r := range st.Redirs {
		switch r.Op {
		case syntax.Hdoc, syntax.DashHdoc:
			if r.Hdoc == nil {
				t := ""
				out = &t
				continue
			}
			quoted := false
			for _, p := range r.Word.Parts {
				if _, ok := p.(*syntax.Lit); !ok {
					quoted = true
				}
			}
			if strings.ContainsAny(r.Word.Lit(), "\\") {
				quoted = true
			}
			var b strings.Builder
			for _, p := range r.Hdoc.Parts {
				lit, ok := p.(*syntax.Lit)
				if !ok {
					return nil
				}
				if quoted {
					b.WriteString(lit.Value)
				} else {
					dquoteLit(&b, lit.Value)
				}
			}
			t := b.String()
			out = &t
		case syntax.WordHdoc:
			w := decodeWord(r.Word, "")
			if !w.static {
				return nil
			}
			t := w.val + "\n"
			out = &t
		case syntax.RdrIn, syntax.RdrInOut:
			out = nil
		}
	}
	return out
}

// producedText is the text a command writes to its output, when it is
// in plain sight: echo and printf of static words, cat or tee of a
// here-document. Both the raw and the escape-decoded spellings are given,
// so that each is judged.
func producedText(args []word, stdin *string) ([]string, bool) {
	if len(args) == 0 {
		return nil, false
	}
	for _, a := range args {
		if !a.static || a.pattern {
			return nil, false
		}
	}
	prog := args[0].val
	if b, ok := resolvedProgram(prog); ok {
		prog = b
	}
	rest := vals(args[1:])
	switch prog {
	case "echo":
		for len(rest) > 0 && (rest[0] == "-n" || rest[0] == "-e" || rest[0] == "-E" || rest[0] == "-ne" || rest[0] == "-en") {
			rest = rest[1:]
		}
		raw := strings.Join(rest, " ")
		dec, _ := decodeANSIC(raw)
		return []string{raw + "\n", dec + "\n"}, true
	case "printf":
		if len(rest) > 0 && rest[0] == "--" {
			rest = rest[1:]
		}
		if len(rest) == 0 {
			return []string{""}, true
		}
		f := strings.ReplaceAll(rest[0], "%%", "%")
		dec, _ := decodeANSIC(f)
		out := []string{f, dec}
		if len(rest) > 1 {
			// The arguments fill the format: judge each on its own too.
			out = append(out, strings.Join(rest[1:], "\n"))
		}
		return out, true
	case "cat", "tee":
		if stdin == nil {
			return nil, false
		}
		if prog == "cat" {
			for _, a := range rest {
				if a != "-" && !strings.HasPrefix(a, "-") {
					return nil, false
				}
			}
		}
		return []string{*stdin}, true
	}
	return nil, false
}

// noteOutput records the text a command writes into the files it
// redirects its output to, and tee's files.
func (x *cmdCtx) noteOutput(words []word, redirs []redirTarget) {
	if len(x.c.written) == 0 || len(words) == 0 {
		return
	}
	text, ok := producedText(words, x.stdin)
	if !ok {
		return
	}
	for _, r := range redirs {
		if r.write && !r.fd {
			x.noteText(r.w, text)
		}
	}
	if p, _ := resolvedProgram(words[0].val); p == "tee" || words[0].val == "tee" {
		for _, w := range operands(words[1:], "", nil) {
			x.noteText(w, text)
		}
	}
}
