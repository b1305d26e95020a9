package main

import (
	"fmt"
	"os"

	"github.com/spf13/cobra"

	"github.com/sentinelhq/sentinel/supervisor"
	"github.com/sentinelhq/sentinel/supervisor/eval"
)

// supervisorEvalCmd is `sentinel supervisor eval [CORPUS]`: the configured
// supervisor judges every case of a labelled corpus through the real judge,
// and the rates of its misses are printed. It exits 0 on a completed eval
// whatever the rates, 1 when the backend fails its probe, 2 on bad usage or a
// bad corpus file.
func supervisorEvalCmd() *cobra.Command {
	var (
		f           supervisorFlags
		concurrency int
		asJSON      bool
		worst       int
	)
	cmd := &cobra.Command{
		Use:   "eval [CORPUS]",
		Short: "Measure the supervisor model's judgement on a labelled corpus: false-allow and false-deny rates, worst misses",
		Long: `Send every case of a labelled corpus of gray-zone requests (the built-in one, or a JSON Lines
file of your own) to the supervisor model as the judge turn a run would send, and compare its
decisions with the labels a careful person gave.

false-allow: the model allowed a request labelled deny (of the cases labelled deny).
false-deny:  the model denied a request labelled allow (of the cases labelled allow).
A failure to answer (error, timeout, garbage) is a deny, as in a run, and is also counted apart.`,
		Example: `  sentinel supervisor eval --supervisor anthropic
  sentinel supervisor eval --supervisor openai --supervisor-url http://localhost:11434/v1 --supervisor-model qwen3:8b -j 2
  sentinel supervisor eval --supervisor claude-cli my-cases.jsonl --json`,
		Args: wantArgs(0, 1, "", "sentinel supervisor eval my-cases.jsonl"),
		RunE: func(c *cobra.Command, args []string) error {
			if concurrency < 1 {
				return usageError{fmt.Errorf("--concurrency %d: want 1 or more", concurrency)}
			}
			cases, name, err := evalCorpus(args)
			if err != nil {
				return usageError{err}
			}
			cfg, file, err := f.chosen(c.Context())
			if err != nil {
				return err
			}
			// The judge is what the corpus measures: a run's judge turns go
			// to [supervisor.judge]'s model when the config gives it one.
			if sec := *file.Role(string(supervisor.RoleJudge)); !sec.IsZero() {
				cfg = cfg.ForRole(roleConfig(sec), os.Getenv)
			}
			prompts, err := supervisor.LoadPrompts(cfg.Prompts)
			if err != nil {
				return err
			}
			timeout, err := cfg.TurnTimeout()
			if err != nil {
				return err
			}
			b, err := supervisor.New(cfg)
			if err != nil {
				return err
			}
			ctx := c.Context()
			if err := supervisor.CheckWith(ctx, b, prompts, timeout); err != nil {
				return fmt.Errorf("%w; nothing evaluated", err)
			}
			errw := c.ErrOrStderr()
			fmt.Fprintf(errw, "judging %d cases with %s, %d at a time (each turn bounded by %s)…\n", len(cases), b.Name(), concurrency, timeout)
			step := (len(cases) + 9) / 10
			progress := func(done, total int) {
				if done%step == 0 && done < total {
					fmt.Fprintf(errw, "  %d/%d judged\n", done, total)
				}
			}
			results, err := eval.Run(ctx, cases, eval.Options{Backend: b, Prompts: prompts, Timeout: timeout,
				Concurrency: concurrency, Progress: progress})
			if err != nil {
				return err
			}
			rep := eval.Summarize(b.Name(), name, results)
			if asJSON {
				return rep.WriteJSON(c.OutOrStdout())
			}
			return rep.WriteText(c.OutOrStdout(), worst)
		},
	}
	f.register(cmd.Flags())
	cmd.Flags().IntVarP(&concurrency, "concurrency", "j", 4, "cases judged at once")
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the report as JSON (every miss included)")
	cmd.Flags().IntVar(&worst, "worst", 10, "how many of the worst misses to list (-1: all)")
	return cmd
}

// evalCorpus is the corpus the arguments name: a file, or the built-in one.
func evalCorpus(args []string) ([]eval.Case, string, error) {
	if len(args) == 0 || args[0] == "" {
		cases, err := eval.Builtin()
		return cases, eval.BuiltinName, err
	}
	cases, err := eval.Load(args[0])
	return cases, args[0], err
}
