package main

import (
	"context"
	"errors"
	"os"

	"github.com/spf13/cobra"

	"github.com/sentinelhq/sentinel/approvals"
	"github.com/sentinelhq/sentinel/runner/demo"
)

// The demo coder is this same binary in a hidden mode, started by the
// runner under the pty and the sandbox like any other coder.
func newCoderDemoCmd() *cobra.Command {
	var scenario, task string
	cmd := &cobra.Command{
		Use:    "coder-demo",
		Short:  "The built-in scripted coder (started by sentinel run --coder demo)",
		Hidden: true,
		Args:   noArgs,
		RunE: func(c *cobra.Command, _ []string) error {
			sc, err := demo.Load(scenario)
			if err != nil {
				return err
			}
			wd, err := os.Getwd()
			if err != nil {
				return err
			}
			noEcho(os.Stdin)
			var broker demo.Broker = deniedBroker{}
			if sock := os.Getenv(approvals.EnvSocket); sock != "" {
				if cl, err := approvals.Dial(sock); err == nil {
					defer cl.Close()
					broker = cl
				}
			}
			coder := &demo.Coder{Scenario: sc, Task: task, Dir: wd, Broker: broker, In: os.Stdin, Out: os.Stdout}
			if code := coder.Run(c.Context()); code != 0 {
				return exitError{code: code}
			}
			return nil
		},
	}
	cmd.Flags().StringVar(&scenario, "scenario", "", "scenario `FILE`")
	cmd.Flags().StringVar(&task, "task", "", "the task text")
	return cmd
}

// deniedBroker stands in when no broker can be reached: every request is
// denied, as a hook with no broker would.
type deniedBroker struct{}

func (deniedBroker) Ask(context.Context, approvals.Request) (approvals.Decision, error) {
	return approvals.Decision{Outcome: approvals.OutcomeDeny, By: "error", Reason: "no broker to ask"}, errors.New("no broker to ask")
}
func (deniedBroker) Report(context.Context, approvals.Report) error { return errors.New("no broker") }
