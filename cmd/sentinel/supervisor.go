package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/sentinelhq/sentinel/internal/config"
	"github.com/sentinelhq/sentinel/internal/journal"
	"github.com/sentinelhq/sentinel/runner"
	"github.com/sentinelhq/sentinel/sandbox"
	"github.com/sentinelhq/sentinel/supervisor"
	"github.com/sentinelhq/sentinel/supervisor/steer"
)

// supervisorFlags choose the supervisor model; `run` and `supervisor check`
// share them.
type supervisorFlags struct {
	backend string
	model   string
	baseURL string
	prompts string
	timeout time.Duration
}

func (f *supervisorFlags) register(fl *pflag.FlagSet) {
	fl.StringVar(&f.backend, "supervisor", "", "supervisor model backend: anthropic, openai (any OpenAI-compatible server), claude-cli (your signed-in Claude Code) or codex-cli (your signed-in Codex); unset: no supervisor")
	fl.StringVar(&f.model, "supervisor-model", "", "supervisor model name (default: $"+supervisor.EnvModel+", else the backend's default)")
	fl.StringVar(&f.baseURL, "supervisor-url", "", "supervisor API base URL, e.g. http://localhost:11434/v1 for Ollama (default: $"+supervisor.EnvBaseURL+")")
	fl.DurationVar(&f.timeout, "supervisor-timeout", 0, "bound on one supervisor model turn; a turn past it is a deny (default: [supervisor] timeout, else 60s)")
	fl.StringVar(&f.prompts, "prompts", "", "prompts `FILE` overriding the built-in supervisor prompts (default: $"+supervisor.EnvPrompts+")")
}

// supervisorConfig is config.toml's [supervisor] section as the supervisor
// package's Config: every key of the section, field by field.
func supervisorConfig(s config.Supervisor) supervisor.Config {
	return supervisor.Config{
		Backend:   supervisor.Kind(s.Backend),
		BaseURL:   s.BaseURL,
		Model:     s.Model,
		APIKeyEnv: s.APIKeyEnv,
		Timeout:   s.Timeout,
		Prompts:   s.Prompts,
		MaxTokens: s.MaxTokens,
		Command:   s.Command,
	}
}

// config turns the flags into a resolved supervisor.Config; file is the
// [supervisor] section of config.toml, if the config has one. enabled is
// false when no backend is chosen.
func (f *supervisorFlags) config(file config.Supervisor) (cfg supervisor.Config, enabled bool, err error) {
	cfg = supervisorConfig(file)
	if f.timeout < 0 {
		return cfg, false, usageError{fmt.Errorf("--supervisor-timeout %s: want a positive duration such as 30s", f.timeout)}
	}
	if f.backend != "" {
		k, err := supervisor.ParseKind(f.backend)
		if err != nil {
			return cfg, false, usageError{err}
		}
		cfg.Backend = k
	}
	if cfg.Backend == "" {
		return cfg, false, nil
	}
	cfg = cfg.Resolve(os.Getenv)
	if f.model != "" {
		cfg.Model = f.model
	}
	if f.baseURL != "" {
		cfg.BaseURL = f.baseURL
	}
	if f.prompts != "" {
		cfg.Prompts = f.prompts
	}
	if f.timeout > 0 {
		cfg.Timeout = f.timeout.String()
	}
	return cfg, true, nil
}

// supervisorFactory does everything that can fail up front — the prompts
// file, the timeouts, each role's backend and its key, and one probe turn
// to every distinct model the roles use — so a run refuses to start on a
// supervisor that cannot answer, and returns what builds the run's
// supervisor once its journal and directory exist. cfg is the resolved
// base ([supervisor] with the environment and flags); file holds the role
// sections.
func supervisorFactory(ctx context.Context, cfg supervisor.Config, file config.Supervisor) (build func(task string, j *journal.Journal, runDir string) *supervisor.Supervisor, prompts *supervisor.Prompts, err error) {
	prompts, err = supervisor.LoadPrompts(cfg.Prompts)
	if err != nil {
		return nil, nil, err
	}
	models := roleModels(cfg, file, os.Getenv)
	if err := buildRoleModels(models); err != nil {
		return nil, nil, err
	}
	// A supervisor that cannot answer would deny every gray-zone request and
	// every "done" only after the coder has worked: ask each model the same
	// probe as `sentinel supervisor check`, bounded by its turn timeout,
	// before anything starts.
	if _, err := checkRoleModels(ctx, models, prompts); err != nil {
		return nil, nil, fmt.Errorf("the run did not start: %w; fix it and see `sentinel supervisor check`, or run without --supervisor", err)
	}
	return func(task string, j *journal.Journal, runDir string) *supervisor.Supervisor {
		o := supervisorOptions(models)
		o.Prompts, o.Task, o.Journal, o.RunDir = prompts, task, j, runDir
		return supervisor.NewSupervisor(o)
	}, prompts, nil
}

// checkSupervisor probes every model the flags and config give the roles
// and says, one line each, which answer; the error names each role whose
// model does not.
func checkSupervisor(ctx context.Context, cfg supervisor.Config, file config.Supervisor) (ok []string, err error) {
	prompts, err := supervisor.LoadPrompts(cfg.Prompts)
	if err != nil {
		return nil, err
	}
	models := roleModels(cfg, file, os.Getenv)
	if err := buildRoleModels(models); err != nil {
		return nil, err
	}
	answered, err := checkRoleModels(ctx, models, prompts)
	for _, m := range answered {
		line := "supervisor " + m.backend.Name()
		if w := m.who(); w != "" {
			line += " (" + strings.TrimPrefix(w, "the ") + ")"
		}
		ok = append(ok, line+": answers with a structured judgment")
	}
	return ok, err
}

// supervisorDoctorCheck is `sentinel doctor`'s row for the supervisor model
// the flags and config choose; ok is false when none is chosen (no row).
func supervisorDoctorCheck(ctx context.Context, f supervisorFlags, file config.Supervisor) (sandbox.Check, bool) {
	cfg, on, err := f.config(file)
	ck := sandbox.Check{Name: "supervisor"}
	switch {
	case err != nil:
		ck.Detail, ck.Fix = err.Error(), "pass --supervisor anthropic|openai|claude-cli|codex-cli"
		return ck, true
	case !on:
		return ck, false
	}
	if _, err := supervisor.LoadPrompts(cfg.Prompts); err != nil {
		ck.Detail, ck.Fix = err.Error(), "fix or unset "+supervisor.EnvPrompts
		return ck, true
	}
	lines, err := checkSupervisor(ctx, cfg, file)
	if err != nil {
		ck.Detail, ck.Fix = err.Error(), "sentinel supervisor check --help"
		return ck, true
	}
	for i, l := range lines {
		lines[i] = strings.TrimSuffix(strings.TrimPrefix(l, "supervisor "), ": answers with a structured judgment")
	}
	ck.OK, ck.Detail = true, strings.Join(lines, "; ")+" answers with a structured judgment"
	return ck, true
}

func newSupervisorCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "supervisor",
		Short: "Check the supervisor model, or scan a run for steering findings",
	}
	var f supervisorFlags
	check := &cobra.Command{
		Use:   "check",
		Short: "Ask each supervisor model (the base, and each role's own) one probe question: reachable, answers, structured output parses",
		Example: `  sentinel supervisor check --supervisor anthropic
  sentinel supervisor check --supervisor openai --supervisor-url http://localhost:11434/v1 --supervisor-model llama3.1
  sentinel supervisor check --supervisor claude-cli
  sentinel supervisor check --supervisor codex-cli`,
		Args: noArgs,
		RunE: func(c *cobra.Command, _ []string) error {
			cfg, file, err := f.chosen(c.Context())
			if err != nil {
				return err
			}
			lines, err := checkSupervisor(c.Context(), cfg, file)
			for _, l := range lines {
				fmt.Fprintln(c.OutOrStdout(), l)
			}
			return err
		},
	}
	f.register(check.Flags())
	scan := &cobra.Command{
		Use:   "scan RUN|RUN-DIR|events.jsonl",
		Short: "List what steering detection finds in a run's journal (RUN is a run id, a unique prefix of one, or 'last'; or the run's directory or journal)",
		Args:  wantArgs(1, 1, runArg+", or its directory", "sentinel supervisor scan last"),
		RunE: func(c *cobra.Command, args []string) error {
			// A run is named as sentinel show names it; a directory is
			// a run's (its events.jsonl).
			path := args[0]
			if st, err := os.Stat(path); err == nil && st.IsDir() {
				path = filepath.Join(path, "events.jsonl")
			} else if path, _, err = showJournal(c, path); err != nil {
				return err
			}
			evs, err := journal.ReadFile(path)
			if err != nil {
				return fmt.Errorf("read the journal: %w", err)
			}
			found := steer.Detect(evs)
			w := &steer.Watcher{}
			for _, fd := range found {
				fmt.Fprintf(c.OutOrStdout(), "#%d %s: %s\n  → %s\n", fd.Seq, fd.Kind, fd.Detail, w.Message(fd))
			}
			if len(found) == 0 {
				fmt.Fprintln(c.OutOrStdout(), "nothing to steer about")
			}
			return nil
		},
	}
	cmd.AddCommand(check, scan, supervisorEvalCmd())
	return cmd
}

// configHere is the configuration a command run in the working directory
// sees: the user's config.toml, and the project's when the directory is in
// one (root is then the project's root, else empty).
// chosen is the supervisor the flags and this folder's config.toml choose,
// with that [supervisor] section; none chosen is a usage error.
func (f *supervisorFlags) chosen(ctx context.Context) (supervisor.Config, config.Supervisor, error) {
	file, _, err := configHere(ctx)
	if err != nil {
		return supervisor.Config{}, config.Supervisor{}, err
	}
	cfg, ok, err := f.config(file.Supervisor)
	if err != nil {
		return supervisor.Config{}, config.Supervisor{}, err
	}
	if !ok {
		return supervisor.Config{}, config.Supervisor{}, usageError{fmt.Errorf("no supervisor chosen: pass --supervisor anthropic|openai|claude-cli|codex-cli, or set [supervisor] backend in config.toml")}
	}
	return cfg, file.Supervisor, nil
}

func configHere(ctx context.Context) (file config.Config, root string, err error) {
	if wd, err := os.Getwd(); err == nil {
		if p, err := runner.FindProject(ctx, wd); err == nil {
			root = p.Root
		}
	}
	file, err = config.Load(root)
	return file, root, err
}
