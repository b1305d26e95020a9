package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"unicode/utf8"

	"github.com/spf13/cobra"

	"github.com/sentinelhq/sentinel/internal/textsafe"
	"github.com/sentinelhq/sentinel/policy"
	"github.com/sentinelhq/sentinel/runner"
)

type policyFlags struct {
	cwd       string
	workspace string
	json      bool
	stdin     bool
	sandbox   string // "on" (the default, as a run) or "off"
	// inPlace and checkpointed judge as exec does (policy_inplace.go).
	inPlace, checkpointed bool
}

func newPolicyCmd() *cobra.Command {
	pc := &cobra.Command{
		Use:   "policy",
		Short: "Ask the policy engine about a command, or explain its rules",
	}
	var f policyFlags
	check := &cobra.Command{
		Use:   "check [--cwd DIR] [--workspace DIR] [--sandbox on|off] [--json] -- 'COMMAND'  |  check --stdin --json",
		Short: "Judge a shell command as allow, ask or deny",
		Long: `Judge a shell command the way Sentinel judges the coder's commands.

It prints the decision, the deciding rule, the reason and every simple command
found in the line. With --stdin it reads JSON Lines — each line a JSON string
(the command) or an object {"command": "...", "cwd": "..."} — and writes one
JSON object per input line, in order. Bad lines get {"error": ..., "line": N}.

The workspace is --workspace, else the git top-level of --cwd (or of the
current directory), else that directory. Rules come from the built-in set,
the user's policy.toml and the project's .sentinel/policy.toml, through the
same trust gate as a run: a project file a run would leave out (in a place
that is not a repository, until 'sentinel config trust'; in a repository that
commits .sentinel/) is left out here too, with a line on stderr saying so.

--sandbox says whether the command would run inside Sentinel's sandbox, as a
run does by default: inside it, running the project's own scripts, programs,
generators and plain inline snippets is allowed; with --sandbox off, where the
policy is the only gate, generators, workspace programs run directly and inline
snippets that do more than compute and read workspace files they name ask,
while a workspace script run through a known interpreter (sh, bash, python,
node, ruby, php…), a jar of the project's build output and an npx of a package
package.json declares are allowed, as 'make test' is.`,
		RunE: func(c *cobra.Command, args []string) error { return runPolicyCheck(c, f, args) },
	}
	check.Flags().StringVar(&f.cwd, "cwd", "", "directory the command runs in (default: current directory)")
	check.Flags().StringVar(&f.workspace, "workspace", "", "workspace root (default: git top-level of --cwd)")
	check.Flags().BoolVar(&f.json, "json", false, "print JSON")
	check.Flags().BoolVar(&f.stdin, "stdin", false, "read JSON Lines commands from standard input")
	check.Flags().StringVar(&f.sandbox, "sandbox", "on", "judge as a run with the sandbox on or off (as 'sentinel run --sandbox off')")
	addInPlaceFlags(check, &f)

	var wsExplain string
	explain := &cobra.Command{
		Use:   "explain RULE_ID",
		Short: "Show a rule, where it came from and its examples",
		Args:  wantArgs(1, 1, "which rule? give a rule id (sentinel policy rules lists them)", "sentinel policy explain shell.eval"),
		RunE: func(c *cobra.Command, args []string) error {
			e, _, err := policyEngine(c, policyFlags{workspace: wsExplain})
			if err != nil {
				return err
			}
			r := e.Rule(args[0])
			if r == nil {
				return usageError{fmt.Errorf("no rule %q (see 'sentinel policy rules' for the ids)", args[0])}
			}
			printRule(c.OutOrStdout(), r)
			return nil
		},
	}
	explain.Flags().StringVar(&wsExplain, "workspace", "", "project whose .sentinel/policy.toml to load (default: git top-level of the current directory)")

	var wsRules string
	rules := &cobra.Command{
		Use:   "rules",
		Short: "List every rule id with its decision and source",
		Args:  noArgs,
		RunE: func(c *cobra.Command, args []string) error {
			e, _, err := policyEngine(c, policyFlags{workspace: wsRules})
			if err != nil {
				return err
			}
			w := c.OutOrStdout()
			for _, r := range e.Rules() {
				fmt.Fprintf(w, "%-5s  %-32s  %s\n", r.Decision, textsafe.Line(r.ID), textsafe.Line(r.Source))
			}
			return nil
		},
	}
	rules.Flags().StringVar(&wsRules, "workspace", "", "project whose .sentinel/policy.toml to load")
	pc.AddCommand(check, explain, rules)
	return pc
}

func printRule(w io.Writer, r *policy.Rule) {
	fmt.Fprintf(w, "id:        %s\n", textsafe.Line(r.ID))
	fmt.Fprintf(w, "decision:  %s\n", r.Decision)
	src := r.Source
	if r.Line > 0 {
		src = fmt.Sprintf("%s:%d", r.Source, r.Line)
	}
	fmt.Fprintf(w, "source:    %s\n", textsafe.Line(src))
	if r.Reason != "" {
		fmt.Fprintf(w, "reason:    %s\n", textsafe.Line(r.Reason))
	}
	for _, m := range []struct {
		name string
		v    []string
	}{{"argv", r.Argv}, {"paths", r.Paths}, {"hosts", r.Hosts}, {"tools", r.Tools}} {
		if len(m.v) > 0 {
			fmt.Fprintf(w, "%-10s %s\n", m.name+":", textsafe.Line(strings.Join(m.v, " ")))
		}
	}
	if r.Access != "" {
		fmt.Fprintf(w, "access:    %s\n", r.Access)
	}
	for _, ex := range r.Match {
		fmt.Fprintf(w, "matches:   %s\n", textsafe.Line(ex))
	}
	for _, ex := range r.NotMatch {
		fmt.Fprintf(w, "not:       %s\n", textsafe.Line(ex))
	}
}

// gitTop walks up from dir to the directory holding .git.
func gitTop(dir string) string {
	for d := dir; ; {
		if _, err := os.Lstat(filepath.Join(d, ".git")); err == nil {
			return d
		}
		parent := filepath.Dir(d)
		if parent == d {
			return ""
		}
		d = parent
	}
}

// policyEngine resolves the workspace and loads the rules a run there
// would judge by: runner.JudgeFiles, the run's own list and trust gate (a
// project's untrusted .sentinel/policy.toml is left out, with one line on
// stderr saying so and how to trust it).
func policyEngine(c *cobra.Command, f policyFlags) (*policy.Engine, policy.Context, error) {
	var ctx policy.Context
	cwd := f.cwd
	if cwd == "" {
		wd, err := os.Getwd()
		if err != nil {
			return nil, ctx, fmt.Errorf("cannot read the current directory: %w", err)
		}
		cwd = wd
	}
	cwd, err := filepath.Abs(cwd)
	if err != nil {
		return nil, ctx, fmt.Errorf("--cwd %s: %w", f.cwd, err)
	}
	ws := f.workspace
	if ws == "" {
		ws = gitTop(cwd)
		if ws == "" {
			ws = cwd
		}
	}
	if ws, err = filepath.Abs(ws); err != nil {
		return nil, ctx, fmt.Errorf("--workspace %s: %w", f.workspace, err)
	}
	home, _ := os.UserHomeDir()
	ctx = policy.Context{Workspace: ws, Cwd: cwd, Home: home, Sandboxed: f.sandbox != "off"}
	_, files, _, warnings, err := runner.JudgeFiles(c.Context(), ws)
	if err != nil {
		return nil, ctx, fmt.Errorf("workspace %s: %w", ws, err)
	}
	for _, w := range warnings {
		fmt.Fprintln(c.ErrOrStderr(), "sentinel: "+textsafe.Line(w))
	}
	e, err := policy.Load(files...)
	if err != nil {
		return nil, ctx, err
	}
	return e, ctx, nil
}

func runPolicyCheck(c *cobra.Command, f policyFlags, args []string) error {
	if f.sandbox != "on" && f.sandbox != "off" {
		return usageError{fmt.Errorf("--sandbox %q: want on or off", f.sandbox)}
	}
	e, ctx, err := policyEngine(c, f)
	if err != nil {
		return err
	}
	if ctx, err = inPlaceContext(f, ctx); err != nil {
		return err
	}
	out := c.OutOrStdout()
	if f.stdin {
		if len(args) > 0 {
			return usageError{errors.New("give either --stdin or a command, not both")}
		}
		if !f.json {
			return usageError{errors.New("--stdin needs --json (one JSON object per input line)")}
		}
		return checkLines(e, ctx, c.InOrStdin(), out)
	}
	if len(args) == 0 {
		return usageError{errors.New("no command to check (usage: sentinel policy check -- 'COMMAND')")}
	}
	v := e.Check(policy.Query{Kind: policy.KindShell, Command: strings.Join(args, " "), Context: ctx})
	if f.json {
		return json.NewEncoder(out).Encode(verdictJSON(v, 0))
	}
	printVerdict(out, v)
	return nil
}

type partOut struct {
	Text      string   `json:"text"`
	Argv      []string `json:"argv"`
	Dynamic   bool     `json:"dynamic,omitempty"`
	Redirects []string `json:"redirects,omitempty"`
	Wrappers  []string `json:"wrappers,omitempty"`
	Assigns   []string `json:"assigns,omitempty"`
	Via       string   `json:"via,omitempty"`
	Decision  string   `json:"decision"`
	Rule      string   `json:"rule"`
	Reason    string   `json:"reason"`
}

type verdictOut struct {
	Line           int       `json:"line,omitempty"`
	Decision       string    `json:"decision"`
	Rule           string    `json:"rule"`
	Reason         string    `json:"reason"`
	NeverDelegable bool      `json:"never_delegable,omitempty"`
	Parts          []partOut `json:"parts"`
}

func verdictJSON(v policy.Verdict, line int) verdictOut {
	o := verdictOut{Line: line, Decision: v.Decision.String(), Rule: v.Rule, Reason: v.Reason,
		NeverDelegable: v.NeverDelegable, Parts: []partOut{}}
	for _, p := range v.Parts {
		o.Parts = append(o.Parts, partOut{Text: p.Text, Argv: p.Argv, Dynamic: p.Dynamic, Redirects: p.Redirects,
			Wrappers: p.Wrappers, Assigns: p.Assigns, Via: p.Via, Decision: p.Decision.String(), Rule: p.Rule, Reason: p.Reason})
	}
	return o
}

func printVerdict(w io.Writer, v policy.Verdict) {
	fmt.Fprintf(w, "decision: %s\n", v.Decision)
	fmt.Fprintf(w, "rule:     %s\n", textsafe.Line(v.Rule))
	fmt.Fprintf(w, "reason:   %s\n", textsafe.Line(v.Reason))
	if v.NeverDelegable {
		fmt.Fprintln(w, "note:     only a person may approve this (never a supervisor model)")
	}
	fmt.Fprintln(w, "parts:")
	for i, p := range v.Parts {
		via := ""
		if p.Via != "" {
			via = " [" + p.Via + "]"
		}
		fmt.Fprintf(w, "  %d. %-5s %-26s %q%s\n       %s\n", i+1, p.Decision, textsafe.Line(p.Rule), p.Text, textsafe.Line(via), textsafe.Line(p.Reason))
	}
}

type errorOut struct {
	Error    string `json:"error"`
	Line     int    `json:"line"`
	Decision string `json:"decision"`
	Rule     string `json:"rule"`
	Reason   string `json:"reason"`
}

// checkLines judges JSON Lines from r, one output object per input line.
func checkLines(e *policy.Engine, ctx policy.Context, r io.Reader, w io.Writer) error {
	br := bufio.NewReaderSize(r, 64*1024)
	bw := bufio.NewWriter(w)
	enc := json.NewEncoder(bw)
	enc.SetEscapeHTML(false)
	for n := 1; ; n++ {
		line, err := br.ReadBytes('\n')
		if len(line) == 0 && err != nil {
			if errors.Is(err, io.EOF) {
				break
			}
			return fmt.Errorf("reading standard input: %w", err)
		}
		line = bytes.TrimRight(line, "\r\n")
		if n == 1 {
			line = bytes.TrimPrefix(line, []byte("\xef\xbb\xbf")) // a UTF-8 byte-order mark
		}
		if out, bad := judgeLine(e, ctx, line); bad != "" {
			_ = enc.Encode(errorOut{Error: bad, Line: n, Decision: "deny", Rule: policy.RuleQueryBad, Reason: bad})
		} else {
			out.Line = n
			_ = enc.Encode(out)
		}
		if err := bw.Flush(); err != nil {
			return fmt.Errorf("writing standard output: %w", err)
		}
		if err != nil && errors.Is(err, io.EOF) {
			break
		}
	}
	return bw.Flush()
}

func judgeLine(e *policy.Engine, ctx policy.Context, line []byte) (verdictOut, string) {
	if len(bytes.TrimSpace(line)) == 0 {
		return verdictOut{}, "empty line (want a JSON string or {\"command\": ...})"
	}
	if bytes.IndexByte(line, 0) >= 0 {
		return verdictOut{}, "the line holds a NUL byte"
	}
	if !utf8.Valid(line) {
		return verdictOut{}, "the line is not valid UTF-8"
	}
	var raw any
	dec := json.NewDecoder(bytes.NewReader(line))
	if err := dec.Decode(&raw); err != nil {
		return verdictOut{}, "not JSON: " + err.Error()
	}
	if dec.More() {
		return verdictOut{}, "more than one JSON value on the line"
	}
	var cmd string
	q := ctx
	switch v := raw.(type) {
	case string:
		cmd = v
	case map[string]any:
		c, ok := v["command"].(string)
		if !ok {
			return verdictOut{}, "the object has no string \"command\""
		}
		cmd = c
		if cw, present := v["cwd"]; present {
			s, ok := cw.(string)
			if !ok {
				return verdictOut{}, "\"cwd\" must be a string"
			}
			if s != "" {
				if !filepath.IsAbs(s) {
					s = filepath.Join(ctx.Cwd, s)
				}
				q.Cwd = filepath.Clean(s)
			}
		}
	default:
		return verdictOut{}, "want a JSON string or an object with \"command\""
	}
	if strings.IndexByte(cmd, 0) >= 0 {
		return verdictOut{}, "the command holds a NUL byte"
	}
	if strings.TrimSpace(cmd) == "" {
		return verdictOut{}, "the command is empty"
	}
	v := e.Check(policy.Query{Kind: policy.KindShell, Command: cmd, Context: q})
	return verdictJSON(v, 0), ""
}
