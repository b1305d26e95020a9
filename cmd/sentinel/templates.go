package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"

	"github.com/sentinelhq/sentinel/approvals"
	"github.com/sentinelhq/sentinel/internal/textsafe"
	"github.com/sentinelhq/sentinel/policy"
	"github.com/sentinelhq/sentinel/runner"
)

func newTemplatesCmd() *cobra.Command {
	t := &cobra.Command{
		Use:   "templates",
		Short: "List, add, remove and test remembered approvals",
		Long: `Remembered approvals (templates) let a command, a write path or a host pass
without asking. They match the parsed command — an exact argv or an argv
prefix; every command of a compound line must be covered — a path glob inside
the workspace, or an exact host[:port]. Policy denies always win.

Project templates live in <git top-level>/.sentinel/templates.toml, user
templates in ` + userTemplatesHint() + `.`,
		Args: noArgs,
	}
	t.AddCommand(templatesList(), templatesShow(), templatesRm(), templatesAdd(), templatesTest())
	return t
}

func userTemplatesHint() string {
	if p, err := approvals.UserTemplatesPath(); err == nil {
		return p
	}
	return "$XDG_CONFIG_HOME/sentinel/templates.toml"
}

// projectRoot is the git top-level of dir, or "" outside a repository.
func projectRoot(ctx context.Context, dir string) string { return runner.TopLevel(ctx, dir) }

// templateFiles finds the project (may be "") and user template files.
func templateFiles(ctx context.Context) (root, project, user string, err error) {
	cwd, err := os.Getwd()
	if err != nil {
		return "", "", "", err
	}
	if root = projectRoot(ctx, cwd); root != "" {
		project = approvals.ProjectTemplatesPath(root)
	}
	user, err = approvals.UserTemplatesPath()
	return root, project, user, err
}

func loadTemplateSet(c *cobra.Command) (*approvals.TemplateSet, string, error) {
	root, project, user, err := templateFiles(c.Context())
	if err != nil {
		return nil, "", err
	}
	set, err := approvals.LoadTemplates(project, user)
	return set, root, err
}

func templatesList() *cobra.Command {
	var asJSON bool
	c := &cobra.Command{
		Use:   "list",
		Short: "List the project and user templates",
		Args:  noArgs,
		RunE: func(c *cobra.Command, _ []string) error {
			set, _, err := loadTemplateSet(c)
			if err != nil {
				return err
			}
			all := set.All()
			out := c.OutOrStdout()
			if asJSON {
				named := []namedTemplate{}
				for _, t := range all {
					named = append(named, namedTemplate{t, t.Name()})
				}
				return writeJSON(out, named)
			}
			if len(all) == 0 {
				fmt.Fprintln(out, "No remembered approvals. Add one with 'sentinel templates add'.")
				return nil
			}
			tw := tabwriter.NewWriter(out, 0, 2, 2, ' ', 0)
			fmt.Fprintln(tw, "ID\tNAME\tSCOPE\tMATCH\tUSES\tLAST USED\tEXPIRES")
			for _, t := range all {
				fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%d\t%s\t%s\n", textsafe.Line(t.ID), textsafe.Line(t.Name()), t.Scope, textsafe.Line(t.Match.String()), t.Uses, stamp(t.LastUsed, "never"), stamp(t.Expires, "never"))
			}
			return tw.Flush()
		},
	}
	c.Flags().BoolVar(&asJSON, "json", false, "print a JSON array")
	return c
}

// namedTemplate is a template as list --json gives it: with its name.
type namedTemplate struct {
	approvals.Template
	Name string `json:"name"`
}

func stamp(t time.Time, zero string) string {
	if t.IsZero() {
		return zero
	}
	return t.Local().Format("2006-01-02 15:04")
}

func templatesShow() *cobra.Command {
	var asJSON bool
	c := &cobra.Command{
		Use:   "show ID",
		Short: "Show one template",
		Args:  wantArgs(1, 1, "which template? give its id (sentinel templates list lists them)", "sentinel templates show t-76b48242"),
		RunE: func(c *cobra.Command, args []string) error {
			_, t, err := findTemplate(c, args[0])
			if err != nil {
				return err
			}
			out := c.OutOrStdout()
			if asJSON {
				return writeJSON(out, t)
			}
			fmt.Fprintf(out, "id:           %s\nname:         %s\nscope:        %s\nfile:         %s\nmatch:        %s\n", textsafe.Line(t.ID), textsafe.Line(t.Name()), t.Scope, textsafe.Line(t.File), textsafe.Line(t.Match.String()))
			fmt.Fprintf(out, "created:      %s", stamp(t.Created, "unknown"))
			if t.CreatedRun != "" {
				fmt.Fprintf(out, " in run %s", textsafe.Line(t.CreatedRun))
			}
			fmt.Fprintln(out)
			if t.CreatedFrom != "" {
				fmt.Fprintf(out, "created from: %s\n", textsafe.Line(t.CreatedFrom))
			}
			fmt.Fprintf(out, "uses:         %d (last %s)\nexpires:      %s\n", t.Uses, stamp(t.LastUsed, "never"), stamp(t.Expires, "never"))
			for _, ex := range t.MatchExamples {
				fmt.Fprintf(out, "must match:   %s\n", textsafe.Line(ex))
			}
			for _, ex := range t.NotMatchExamples {
				fmt.Fprintf(out, "must not:     %s\n", textsafe.Line(ex))
			}
			return nil
		},
	}
	c.Flags().BoolVar(&asJSON, "json", false, "print JSON")
	return c
}

func templatesRm() *cobra.Command {
	return &cobra.Command{
		Use:   "rm ID",
		Short: "Remove a template",
		Args:  wantArgs(1, 1, "which template? give its id (sentinel templates list lists them)", "sentinel templates rm t-76b48242"),
		RunE: func(c *cobra.Command, args []string) error {
			set, t, err := findTemplate(c, args[0])
			if err != nil {
				return err
			}
			if err := set.Remove(t.ID); err != nil {
				return err
			}
			fmt.Fprintf(c.OutOrStdout(), "Removed %s “%s” (%s) from %s\n", textsafe.Line(t.ID), textsafe.Line(t.Name()), textsafe.Line(t.Match.String()), textsafe.Line(t.File))
			return nil
		},
	}
}

func templatesAdd() *cobra.Command {
	var scope, prefix, exact, glob, host string
	var expires time.Duration
	c := &cobra.Command{
		Use:   "add --scope project|user (--prefix CMD | --exact CMD | --path GLOB | --host HOST)",
		Short: "Remember an approval",
		Example: `  sentinel templates add --scope project --prefix 'python -m pytest'
  sentinel templates add --scope user --host registry.npmjs.org
  sentinel templates add --scope project --path 'src/**/*.go' --expires 72h`,
		Args: noArgs,
		RunE: func(c *cobra.Command, _ []string) error {
			var m approvals.Match
			set := 0
			for _, f := range []string{prefix, exact, glob, host} {
				if f != "" {
					set++
				}
			}
			if set != 1 {
				return usageError{errors.New("give exactly one of --prefix, --exact, --path, --host")}
			}
			var err error
			switch {
			case prefix != "":
				m.Prefix, err = approvals.ParseArgv(prefix)
			case exact != "":
				m.Exact, err = approvals.ParseArgv(exact)
			case glob != "":
				m.Path = glob
			case host != "":
				m.Host = host
			}
			if err != nil {
				return usageError{err}
			}
			sc := approvals.Scope(scope)
			if sc != approvals.ScopeProject && sc != approvals.ScopeUser {
				return usageError{fmt.Errorf("--scope must be project or user, not %q", scope)}
			}
			if expires < 0 {
				return usageError{errors.New("--expires must be a positive duration like 72h")}
			}
			ts, _, err := loadTemplateSet(c)
			if err != nil {
				return err
			}
			if ts.File(sc) == "" {
				return fmt.Errorf("no project here: %s is not inside a git repository (cd into your project or use --scope user)", mustGetwd())
			}
			t, err := ts.Add(approvals.GrantSpec{Scope: sc, Match: m, Expires: expires}, approvals.Origin{Request: "sentinel templates add"})
			if err != nil {
				return err
			}
			fmt.Fprintf(c.OutOrStdout(), "Added %s “%s”: %s (%s scope, %s)\n", textsafe.Line(t.ID), textsafe.Line(t.Name()), textsafe.Line(t.Match.String()), t.Scope, textsafe.Line(t.File))
			return nil
		},
	}
	f := c.Flags()
	f.StringVar(&scope, "scope", "", "where to keep it: project or user (required)")
	f.StringVar(&prefix, "prefix", "", "approve commands starting with these words")
	f.StringVar(&exact, "exact", "", "approve exactly this command")
	f.StringVar(&glob, "path", "", "approve writes to paths matching this glob inside the workspace")
	f.StringVar(&host, "host", "", "approve connections to this exact host[:port]")
	f.DurationVar(&expires, "expires", 0, "forget it after this long (e.g. 72h); default never")
	_ = c.MarkFlagRequired("scope")
	return c
}

func mustGetwd() string {
	d, _ := os.Getwd()
	return d
}

// testResult is what `templates test --json` prints.
type testResult struct {
	Command   string   `json:"command"`
	Decision  string   `json:"decision"` // allow, ask or deny
	By        string   `json:"by"`       // policy:<rule>, template:<id>…, or "person" when it would ask
	Reason    string   `json:"reason"`
	Templates []string `json:"templates,omitempty"`
	Parts     []struct {
		Text     string `json:"text"`
		Decision string `json:"decision"`
		Rule     string `json:"rule,omitempty"`
	} `json:"parts,omitempty"`
}

func templatesTest() *cobra.Command {
	var asJSON bool
	c := &cobra.Command{
		Use:   "test [--json] -- 'COMMAND'",
		Short: "Say whether a command would be approved without asking, and by what",
		Args:  wantArgs(1, -1, "which command? give it after --", "sentinel templates test -- 'go test ./...'"),
		RunE: func(c *cobra.Command, args []string) error {
			line := strings.Join(args, " ")
			// Judged as a run there would: its rule files and templates
			// through the run's trust gate (runner.JudgeFiles).
			cwd := mustGetwd()
			p, files, projectTemplates, warnings, err := runner.JudgeFiles(c.Context(), cwd)
			if err != nil {
				return err
			}
			for _, w := range warnings {
				fmt.Fprintln(c.ErrOrStderr(), "sentinel: "+textsafe.Line(w))
			}
			user, err := approvals.UserTemplatesPath()
			if err != nil {
				return err
			}
			set, err := approvals.LoadTemplates(projectTemplates, user)
			if err != nil {
				return err
			}
			eng, err := policy.Load(files...)
			if err != nil {
				return err
			}
			ws := p.Root
			home, _ := os.UserHomeDir()
			j := approvals.Judge(eng, set, approvals.Request{Kind: policy.KindShell, Command: line, Cwd: cwd},
				policy.Context{Workspace: ws, Cwd: cwd, Home: home})
			r := testResult{Command: line, Templates: j.Templates}
			for _, p := range j.Verdict.Parts {
				r.Parts = append(r.Parts, struct {
					Text     string `json:"text"`
					Decision string `json:"decision"`
					Rule     string `json:"rule,omitempty"`
				}{p.Text, p.Decision.String(), p.Rule})
			}
			switch {
			case j.Decided:
				r.Decision, r.By, r.Reason = string(j.Decision.Outcome), j.Decision.By, j.Decision.Reason
			default:
				r.Decision, r.By = "ask", "person"
				r.Reason = "no template covers every command; policy says: " + j.Verdict.Reason
			}
			out := c.OutOrStdout()
			if asJSON {
				return writeJSON(out, r)
			}
			switch r.Decision {
			case "allow":
				fmt.Fprintf(out, "auto-approved by %s: %s\n", textsafe.Line(r.By), textsafe.Line(r.Reason))
			case "deny":
				fmt.Fprintf(out, "denied by %s: %s\n", textsafe.Line(r.By), textsafe.Line(r.Reason))
			default:
				fmt.Fprintf(out, "would ask: %s\n", textsafe.Line(r.Reason))
			}
			for _, p := range r.Parts {
				fmt.Fprintf(out, "  %-5s %s (%s)\n", p.Decision, textsafe.Line(p.Text), textsafe.Line(p.Rule))
			}
			return nil
		},
	}
	c.Flags().BoolVar(&asJSON, "json", false, "print a JSON object {command, decision, by, reason, templates, parts}")
	return c
}

func writeJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}

// findTemplate loads the project and user templates and finds one by id.
func findTemplate(c *cobra.Command, id string) (*approvals.TemplateSet, approvals.Template, error) {
	set, _, err := loadTemplateSet(c)
	if err != nil {
		return nil, approvals.Template{}, err
	}
	t, ok := set.Get(id)
	if !ok {
		return nil, approvals.Template{}, fmt.Errorf("no template %q (see 'sentinel templates list')", id)
	}
	return set, t, nil
}
