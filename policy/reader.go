package policy

// The one reading of shell text outside the engine: approvals (templates
// and their examples), the Codex adapter (its own `bash -lc` wrapper) and
// steering (masked exit statuses, deleted tests) read shell lines here and
// nowhere else. It judges nothing. The words are decoded as the engine
// decodes them, wrappers are followed by the engine's own readWrapper, and
// a shell's script is found by the engine's own readShell, so a reader
// and the engine never see a different program or script.

import (
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// Line is a shell line read without judging it.
type Line struct {
	Stmts []*Stmt // the top-level statements, in source order
}

// Stmt is one statement: a simple command (Cmd), two statements joined by
// an operator (Op, X, Y), or a compound statement whose statements are
// listed in Inner. Inner also holds the statements in the substitutions
// ($(), backticks, <()) of a command's words, redirections and here-documents.
type Stmt struct {
	Text    string   // the source text, without a trailing ; or &
	Cmd     *Command // a simple command; nil otherwise
	Op      string   // "&&", "||", "|" or "|&" joining X and Y; "" otherwise
	X, Y    *Stmt
	Inner   []*Stmt
	Negated bool // ! cmd
	Async   bool // cmd & or coproc
}

// Command is one simple command as written.
type Command struct {
	Text string   // the statement's source text
	Args []string // the words, decoded as the engine decodes them; a Dynamic word holds only its literal text
	// Dynamic: an assignment prefix, or a word whose value is not known
	// before it runs: an expansion, substitution, glob, brace or ~.
	Dynamic bool
	// Escaped: a word is known but is not its text less quotes: a
	// backslash escape, $'…' or $"…". Args holds the decoded value, but a
	// reader that compares text with words (a template) must not.
	Escaped   bool
	Assigns   []string // NAME=value prefixes, decoded
	Redirects []string // redirection targets as decoded ("1" for 2>&1, a here-document's delimiter)

	words []word
	stdin *string // the here-document or here-string it reads, when in plain sight
}

// ReadShell parses a shell line (bash). An unparseable line, or one
// holding a NUL byte, is an error: the engine asks about those, and a
// reader must not guess.
func ReadShell(line string) (*Line, error) {
	return Read(line).Line() // reading.go
}

// Walk calls fn for every statement, parents before children, in source
// order; fn returning false skips the statement's children.
func (l *Line) Walk(fn func(*Stmt) bool) {
	for _, s := range l.Stmts {
		s.Walk(fn)
	}
}

// Walk calls fn for s and then, unless fn returns false, for X, Y and
// Inner in turn.
func (s *Stmt) Walk(fn func(*Stmt) bool) {
	if s == nil || !fn(s) {
		return
	}
	s.X.Walk(fn)
	s.Y.Walk(fn)
	for _, in := range s.Inner {
		in.Walk(fn)
	}
}

// Commands is every simple command with at least one word, wherever it
// stands, in the order Walk meets them.
func (l *Line) Commands() []*Command {
	var out []*Command
	l.Walk(func(s *Stmt) bool {
		if s.Cmd != nil && len(s.Cmd.Args) > 0 {
			out = append(out, s.Cmd)
		}
		return true
	})
	return out
}

// Program is the command that finally runs once the wrappers the engine
// follows are stripped (env [-i] [NAME=v…], timeout, nice, nohup, stdbuf,
// ionice, setsid, time, command, builtin, exec, busybox, xargs, env -S,
// and uv/poetry/pdm/hatch/pipenv run): `env -i timeout 5 make test` is
// [make test]. npx, coverage run and workspace programs are not followed:
// what they run depends on the workspace. It is nil when a wrapper
// hides what runs (sudo, nsenter, watch, command -v, an option the policy
// does not know) or there is no command.
func (c *Command) Program() []string {
	prog, _ := programOf(c.words)
	if prog == nil {
		return nil
	}
	return vals(prog)
}

// ProgramStatic is Program with, for each word, whether its value is
// known before the line runs: false for a word with an expansion,
// substitution, glob, brace or ~ (whose entry in Program holds only its
// literal text, so `ls$(x)` reads as "ls"). An allowlist that compares
// words must compare only static ones.
func (c *Command) ProgramStatic() (argv []string, static []bool) {
	prog, _ := programOf(c.words)
	if prog == nil {
		return nil, nil
	}
	static = make([]bool, len(prog))
	for i, w := range prog {
		static[i] = w.static && !w.pattern && !w.brace && !w.tilde
	}
	return vals(prog), static
}

// Script is the text a shell runs when the Program is a shell given a
// static -c script (sh -c, bash -lc, sh -ec, /bin/sh -c, with its
// positional arguments or not) or a here-document as its script: the text
// the engine re-parses and judges. ok is false otherwise, including a
// script built from an expansion.
func (c *Command) Script() (string, bool) {
	text, _, ok := c.script()
	return text, ok
}

// ShellScript is Script for words already decoded (each taken as plain
// text, with no input): the script of ["bash", "-lc", "make test"] is
// "make test"; of ["./bash", "-c", "ls"], none (a workspace program).
func ShellScript(argv []string) (string, bool) {
	text, _, ok := scriptOf(plainWords(argv), nil)
	return text, ok
}

// script is Script with the way the engine names where the script's
// commands are reached from ("bash -c", "sh <<").
func (c *Command) script() (text, via string, ok bool) {
	return scriptOf(c.words, c.stdin)
}

func scriptOf(words []word, stdin *string) (text, via string, ok bool) {
	prog, split := programOf(words)
	if len(prog) == 0 {
		return "", "", false
	}
	name := programBase(prog[0].val)
	if !contains(shellNames, name) {
		return "", "", false
	}
	if split {
		stdin = nil // env -S: the engine judges the spelled command on its own, without the statement's input
	}
	return readShell(name, prog[1:]).script(name, stdin)
}

// Unwrap is Program for words already decoded (each taken as plain text).
func Unwrap(argv []string) []string {
	prog, _ := programOf(plainWords(argv))
	if prog == nil {
		return nil
	}
	return vals(prog)
}

func plainWords(argv []string) []word {
	ws := make([]word, len(argv))
	for i, a := range argv {
		ws[i] = word{val: a, static: true}
	}
	return ws
}

// programOf follows wrappers as cmdCtx.command does and returns the words
// of the program that runs (as written, not renamed), or nil when none can
// be read. split reports that env -S spelled it.
func programOf(args []word) (prog []word, split bool) {
	for depth := 0; depth <= 16; depth++ {
		if len(args) == 0 {
			return nil, split
		}
		name := args[0]
		if !name.static || name.pattern || name.val == "" {
			return args, split
		}
		base, ok := resolvedProgram(name.val)
		if !ok {
			if strings.ContainsRune(name.val, '/') {
				return args, split
			}
			base = name.val
		}
		r, ok := readWrapper(base, args[1:])
		if !ok {
			named := append([]word{{val: base, static: true}}, args[1:]...)
			if cmd, _, runs := readEnvRunner(named); runs {
				args = cmd // uv run, poetry run, …: nil when the form asks
				continue
			}
			return args, split
		}
		if r.kind == wrapEnv {
			if ws, _ := r.envSplit(); ws != nil {
				split = true
			}
		}
		args = r.inner()
	}
	return nil, split // too many wrappers: the engine asks
}

// programBase is the name a program word runs as: /usr/bin/bash is bash.
func programBase(v string) string {
	if b, ok := resolvedProgram(v); ok {
		return b
	}
	return v
}

type reader struct {
	src    string
	braced map[*syntax.Word]bool // words a brace expansion made (braces.go)
}

func (r *reader) stmts(list []*syntax.Stmt) []*Stmt {
	out := make([]*Stmt, 0, len(list))
	for _, st := range list {
		out = append(out, r.stmt(st))
	}
	return out
}

func (r *reader) stmt(st *syntax.Stmt) *Stmt {
	s := &Stmt{Text: r.text(st), Negated: st.Negated, Async: st.Background || st.Coprocess}
	switch x := st.Cmd.(type) {
	case nil:
	case *syntax.CallExpr:
		s.Cmd = r.call(s.Text, st, x)
		s.Inner = r.nested(x)
	case *syntax.BinaryCmd:
		s.Op, s.X, s.Y = x.Op.String(), r.stmt(x.X), r.stmt(x.Y)
	default:
		s.Inner = r.nested(x)
	}
	for _, rd := range st.Redirs {
		s.Inner = append(s.Inner, r.nested(rd)...)
	}
	return s
}

// nested reads the statements directly inside n (not inside those).
func (r *reader) nested(n syntax.Node) []*Stmt {
	var out []*Stmt
	syntax.Walk(n, func(m syntax.Node) bool {
		if st, ok := m.(*syntax.Stmt); ok {
			out = append(out, r.stmt(st))
			return false
		}
		return true
	})
	return out
}

func (r *reader) call(text string, st *syntax.Stmt, c *syntax.CallExpr) *Command {
	cmd := &Command{Text: text, stdin: stdinText(st)}
	for _, a := range c.Assigns {
		cmd.Dynamic = true
		name, val := "", ""
		if a.Name != nil {
			name = a.Name.Value
		}
		if a.Value != nil {
			val = decodeWord(a.Value, "").val
		}
		cmd.Assigns = append(cmd.Assigns, name+"="+val)
	}
	for _, w := range c.Args {
		d := decodeWord(w, "")
		dynamic, escaped := wordShape(w, d)
		dynamic = dynamic || r.braced[w] // the text is not the words
		cmd.Dynamic = cmd.Dynamic || dynamic
		cmd.Escaped = cmd.Escaped || escaped
		cmd.words = append(cmd.words, d)
		cmd.Args = append(cmd.Args, d.val)
	}
	for _, rd := range st.Redirs {
		target := ""
		if rd.Word != nil {
			target = decodeWord(rd.Word, "").val
		}
		cmd.Redirects = append(cmd.Redirects, target)
	}
	return cmd
}

// wordShape says whether a word's value is unknown before it runs
// (dynamic: an expansion, substitution, glob, brace, ~, or a ~ bash
// expands after NAME=) and whether its value differs from its text less
// quotes (escaped: a backslash, whose meaning differs inside and outside
// double quotes, $'…' or $"…").
func wordShape(w *syntax.Word, d word) (dynamic, escaped bool) {
	dynamic = !d.static || d.pattern || d.procSubst || d.tilde
	for _, p := range w.Parts {
		switch p := p.(type) {
		case *syntax.Lit:
			if strings.ContainsRune(p.Value, '\\') {
				escaped = true
			}
			if expandAssignTilde(p.Value, "\x00") != p.Value {
				dynamic = true
			}
		case *syntax.SglQuoted:
			escaped = escaped || p.Dollar
		case *syntax.DblQuoted:
			escaped = escaped || p.Dollar
			for _, q := range p.Parts {
				if l, ok := q.(*syntax.Lit); ok && strings.ContainsRune(l.Value, '\\') {
					escaped = true
				}
			}
		default:
			dynamic = true
		}
	}
	return dynamic, escaped
}

// text is a statement's source, without a trailing ; or &.
func (r *reader) text(st *syntax.Stmt) string {
	a, b := int(st.Pos().Offset()), int(st.End().Offset())
	if st.Semicolon.IsValid() {
		b = int(st.Semicolon.Offset())
	}
	if a < 0 || b > len(r.src) || a > b {
		return ""
	}
	return strings.TrimSpace(r.src[a:b])
}
