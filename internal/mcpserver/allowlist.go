package mcpserver

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	"github.com/sentinelhq/sentinel/policy"
)

// maxScriptDepth bounds `sh -c 'sh -c …'` nesting the allowlist follows.
const maxScriptDepth = 4

// gateAllowlist says whether line may run in allowlist mode: every command
// in it, wherever it stands (lists, pipelines, substitutions, subshells,
// `sh -c` scripts, what find -exec and xargs run), must be covered by an
// allowed_commands entry as whole static words; a read-only filter on the
// right of a pipe needs none. It returns the entries that allowed it. rd
// is the line's one parse: its Line is walked here, and the engine walks
// it below.
func (c *Config) gateAllowlist(rd *policy.Reading, cwd string) ([]string, error) {
	line := rd.Text()
	if strings.ContainsAny(line, "\n\r") {
		return nil, &Refusal{Class: ClassMultiLine, Rule: "one line per exec", Reason: "the command holds more than one line",
			Use: "send one line per exec call (join steps with && or ;), or ask the person for a playbook"}
	}
	if strings.TrimSpace(line) == "" {
		return nil, &Refusal{Class: ClassBadInput, Reason: "the command is empty", Use: "give a command line"}
	}
	g := allowGate{c: c, cwd: cwd}
	l, err := rd.Line()
	if err := g.read(l, err, 0); err != nil {
		return nil, err
	}
	// One engine walk of the line serves both checks below: the tools git
	// runs that no word names, and what the line runs through other
	// commands' arguments (find -exec, xargs, git bisect run, env -S).
	// It is the built-in rules' walk in the sandbox, whatever the person's
	// rules say: a walk of its own over the same parse, since the Parts
	// depend on the Context as well as the rules (with the place's own
	// Context, `rails runner 'system("id")'` has no Part for id, and the
	// bindings of `c=rm; $c -rf .git` none for rm).
	v := policy.Default().Check(policy.Query{Kind: policy.KindShell, Command: line, Context: policy.Context{Workspace: cwd, Cwd: cwd, Sandboxed: true}, Reading: rd})
	if why := runsToolOf(v.Parts); why != "" { // runlater_unplaced.go
		return nil, &Refusal{Class: ClassNotAllowed, Rule: "allowed_commands", Reason: why, Use: "run git diff, or ask the person"}
	}
	for _, p := range v.Parts {
		if !runsThrough(p.Via) {
			continue
		}
		if p.Argv == nil || p.Dynamic {
			return nil, &Refusal{Class: ClassNotAllowed, Rule: "allowed_commands", Reason: fmt.Sprintf("%q runs a command through %s that cannot be read before it runs", p.Text, p.Via),
				Use: "write the command out directly"}
		}
		argv := policy.Unwrap(p.Argv)
		if argv == nil {
			argv = p.Argv
		}
		static := make([]bool, len(argv))
		for i := range static {
			static[i] = true
		}
		if e := c.covering(argv, static); e == "" {
			return nil, c.notAllowed(argv, false, fmt.Sprintf("%q (run through %s)", strings.Join(argv, " "), p.Via))
		} else {
			g.used = appendNew(g.used, e)
		}
	}
	return g.used, nil
}

// runsThrough says whether a Part reached through via is a command another
// command runs (and so needs an entry of its own), as opposed to shell
// grammar or a shell's script (which the reader walks itself).
func runsThrough(via string) bool {
	switch via {
	case "", "redirect", "for", "arith", "function", "test", "declare":
		return false
	}
	first, _, _ := strings.Cut(via, " ")
	return !policy.IsShell(first) && first != "busybox"
}

type allowGate struct {
	c    *Config
	cwd  string
	used []string
}

// line judges a shell's script (sh -c 'script') at depth.
func (g *allowGate) line(line string, depth int) error {
	rd := policy.Read(line)
	if err := evalSinkLine(rd); err != nil {
		return err
	}
	l, err := rd.Line()
	return g.read(l, err, depth)
}

// read judges l, the reading of a line (err when it could not be read).
func (g *allowGate) read(l *policy.Line, err error, depth int) error {
	if depth > maxScriptDepth {
		return &Refusal{Class: ClassNotAllowed, Rule: "allowed_commands", Reason: "shell scripts nested too deep", Use: "run the inner command directly"}
	}
	if err != nil {
		return &Refusal{Class: ClassUnparseable, Rule: "shell syntax", Reason: err.Error(), Use: "fix the quoting; one plain shell line"}
	}
	for _, s := range l.Stmts {
		if err := g.stmt(s, false, depth); err != nil {
			return err
		}
	}
	return nil
}

// stmt judges s; piped says it reads a pipe's output.
func (g *allowGate) stmt(s *policy.Stmt, piped bool, depth int) error {
	if s == nil {
		return nil
	}
	if s.Async {
		return &Refusal{Class: ClassNotAllowed, Rule: "allowed_commands", Reason: fmt.Sprintf("%q runs in the background", s.Text),
			Use: "run it in the foreground (no trailing &)"}
	}
	switch {
	case s.Cmd != nil:
		if err := g.command(s.Cmd, piped, depth); err != nil {
			return err
		}
		for _, in := range s.Inner {
			if err := g.stmt(in, false, depth); err != nil {
				return err
			}
		}
		return nil
	case s.Op == "|" || s.Op == "|&":
		if err := g.stmt(s.X, piped, depth); err != nil {
			return err
		}
		return g.stmt(s.Y, true, depth)
	case s.Op != "":
		if err := g.stmt(s.X, false, depth); err != nil {
			return err
		}
		return g.stmt(s.Y, false, depth)
	}
	for _, in := range s.Inner {
		if err := g.stmt(in, piped, depth); err != nil {
			return err
		}
	}
	return nil
}

func (g *allowGate) command(cmd *policy.Command, piped bool, depth int) error {
	if len(cmd.Args) == 0 {
		if len(cmd.Assigns) > 0 {
			return nil // NAME=value on its own sets a shell variable
		}
		return nil
	}
	if len(cmd.Assigns) > 0 {
		return &Refusal{Class: ClassNotAllowed, Rule: "allowed_commands", Reason: fmt.Sprintf("%q sets environment variables for the command (%s), which can change what an allowed program runs", cmd.Text, strings.Join(cmd.Assigns, " ")),
			Use: "run the command without NAME=value prefixes"}
	}
	argv, static := cmd.ProgramStatic()
	if argv == nil {
		return &Refusal{Class: ClassNotAllowed, Rule: "allowed_commands", Reason: fmt.Sprintf("%q: a wrapper hides what runs (sudo, watch, an unknown option)", cmd.Text),
			Use: "run the program directly"}
	}
	// env -S spells the command, and variables for it, inside one word:
	// what runs is then not the command's last words.
	if len(argv) > len(cmd.Args) || !slices.Equal(argv, cmd.Args[len(cmd.Args)-len(argv):]) {
		return &Refusal{Class: ClassNotAllowed, Rule: "allowed_commands", Reason: fmt.Sprintf("%q spells the command inside one word (env -S), which can set variables for it", cmd.Text),
			Use: "run the program directly"}
	}
	// Wrapper words (env, timeout, nice…) that set variables: env NAME=v.
	for _, w := range cmd.Args[:len(cmd.Args)-len(argv)] {
		if strings.Contains(w, "=") && !strings.HasPrefix(w, "-") {
			return &Refusal{Class: ClassNotAllowed, Rule: "allowed_commands", Reason: fmt.Sprintf("%q sets environment variables for the command (%s)", cmd.Text, w),
				Use: "run the command without NAME=value"}
		}
	}
	if err := g.redirects(cmd); err != nil {
		return err
	}
	// rg x * with a file named --pre=sh in the folder runs sh: the entry
	// covers the words the line spells, not the ones a glob becomes.
	if glob := cmd.OptionGlob(); glob != "" {
		return &Refusal{Class: ClassNotAllowed, Rule: "allowed_commands", Reason: fmt.Sprintf("%q: the glob %s may expand to a file name that %s reads as an option (a file named --pre=sh makes rg run sh)", cmd.Text, glob, argv[0]),
			Use: "start the glob with ./ (./*), or put -- before it"}
	}
	if e := g.c.covering(argv, static); e != "" {
		g.used = appendNew(g.used, e)
		return nil
	}
	if script, ok := cmd.Script(); ok {
		return g.line(script, depth+1)
	}
	if piped && readOnlyFilter(argv, static) {
		return nil
	}
	return g.c.notAllowed(argv, piped, fmt.Sprintf("%q", cmd.Text))
}

// redirects checks the redirection targets that name files: they must lie
// under the configured paths (the sandbox keeps r paths read-only). A
// target built from an expansion ($HOME/x) is read as its literal text, so
// for those the sandbox, which makes only the rw paths writable, is the
// gate that holds.
func (g *allowGate) redirects(cmd *policy.Command) error {
	for _, t := range cmd.Redirects {
		if t == "" || t == "-" || strings.Trim(t, "0123456789") == "" || t == "/dev/null" || t == "/dev/stdout" || t == "/dev/stderr" {
			continue
		}
		if strings.HasPrefix(t, "~") {
			return &Refusal{Class: ClassPathNotAllowed, Rule: "paths", Reason: fmt.Sprintf("redirection to %q: the shell expands ~ to a home directory", t),
				Use: "write the full path, under " + g.c.rootList()}
		}
		p := t
		if !filepath.IsAbs(p) {
			p = filepath.Join(g.cwd, p)
		}
		abs, err := Canonical(p)
		if err != nil {
			return &Refusal{Class: ClassPathNotAllowed, Rule: "paths", Reason: fmt.Sprintf("redirection to %q: %v", t, err), Use: "use the edit tool to write files"}
		}
		if _, ok := g.c.place(abs); !ok {
			return &Refusal{Class: ClassPathNotAllowed, Rule: "paths", Reason: fmt.Sprintf("redirection to %s is outside the configured paths", abs),
				Use: "use the edit tool with a path under " + g.c.rootList()}
		}
	}
	return nil
}

// covering is the allowed_commands entry that covers argv, or "". An entry
// covers a command when its words are the command's first words, each of
// them static (known before the line runs): "git" covers `git log -1`,
// "systemctl status" covers `systemctl status nginx` but not `systemctl
// restart nginx`, "ls" does not cover `lsof`.
func (c *Config) covering(argv []string, static []bool) string {
	for _, e := range c.allowed {
		if len(argv) < len(e) {
			continue
		}
		ok := true
		for i, w := range e {
			if !static[i] || !sameWord(argv[i], w, i == 0) {
				ok = false
				break
			}
		}
		if ok {
			return strings.Join(e, " ")
		}
	}
	return ""
}

// systemBins are where a program named by absolute path counts as the
// program of that name.
var systemBins = []string{"/usr/bin", "/bin", "/usr/sbin", "/sbin", "/usr/local/bin"}

func sameWord(got, want string, program bool) bool {
	if got == want {
		return true
	}
	if program && !strings.Contains(want, "/") && filepath.IsAbs(got) && filepath.Base(got) == want {
		return slices.Contains(systemBins, filepath.Dir(got))
	}
	return false
}

// notAllowed is the refusal for argv, with the right tool when there is one.
func (c *Config) notAllowed(argv []string, piped bool, what string) error {
	class, reason := ClassNotAllowed, what+" is not covered by any allowed_commands entry"
	if piped {
		class, reason = ClassPipeNotAllowed, "the pipeline feeds "+what+", which is neither allowed nor a read-only filter ("+strings.Join(filterNames(), ", ")+" with no files or output options)"
	}
	use := "run only commands covered by allowed_commands (" + c.allowedList() + "), or ask the person to add an entry"
	switch filepath.Base(argv[0]) {
	case "cat", "head", "tail", "less", "more", "bat", "xxd", "od":
		use = "use the read tool"
	case "ls", "find", "tree", "stat", "du":
		use = "use the list tool"
	case "grep", "rg", "ag", "ack", "egrep", "fgrep":
		use = "use the search tool"
	case "sed", "awk", "tee", "echo", "printf", "vi", "vim", "nano", "ed", "perl", "python", "python3", "truncate", "touch":
		use = "use the edit tool to change files (or read to see them)"
	case "mv":
		use = "use the move tool"
	case "cp":
		use = "use the copy tool"
	case "rm", "rmdir", "unlink", "shred":
		use = "use the delete tool"
	case "chmod":
		use = "use the chmod tool"
	case "cd", "pushd":
		use = "give the directory as exec's cwd argument instead of cd"
	case "systemctl", "service":
		use = "use the service tool (see capabilities section=services)"
	}
	return &Refusal{Class: class, Rule: "allowed_commands", Reason: reason, Use: use}
}

func (c *Config) allowedList() string {
	if len(c.AllowedCommands) == 0 {
		return "none configured"
	}
	return strings.Join(c.AllowedCommands, ", ")
}

func appendNew(xs []string, x string) []string {
	if slices.Contains(xs, x) {
		return xs
	}
	return append(xs, x)
}
