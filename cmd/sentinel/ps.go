package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"

	"github.com/sentinelhq/sentinel/internal/servicewire"
	"github.com/sentinelhq/sentinel/internal/textsafe"
	"github.com/sentinelhq/sentinel/runner/agents"
	"github.com/sentinelhq/sentinel/runner/service"
)

// psRecent is how far back `sentinel ps` lists terminated agents.
const psRecent = time.Hour

func newPsCmd() *cobra.Command {
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "ps",
		Short: "List every agent process on this machine: launched, adopted, bypassed, unsupervised or terminated",
		Long: `sentinel ps lists the coding agents (` + strings.Join(agents.Names(func(*agents.Agent) bool { return true }), ", ") + `,
node-hosted or native) running as you on this machine, and those
terminated in the last hour:

  launched      a Sentinel run's agent (run, exec or a shim), in its sandbox
  adopted       started some other way; the service records what it does
  bypassed      started with SENTINEL_SHIM_BYPASS set; recorded, never ended
  unsupervised  seen with no service running (sentinel service install)
  terminated    ended by [service] require_launcher, or exited

With --json it prints one array of objects (pid, ppid, program, state,
run_id, cwd, exe, argv, user, uid, started, tree, reason, ended); fields are
only ever added.`,
		Args: noArgs,
		RunE: func(c *cobra.Command, _ []string) error {
			agents, up, err := listAgents(c.Context())
			if err != nil {
				return err
			}
			if asJSON {
				if !up {
					fmt.Fprintln(c.ErrOrStderr(), "sentinel ps: the service is not running: agents are listed as unsupervised (start it with sentinel service install)")
				}
				enc := json.NewEncoder(c.OutOrStdout())
				enc.SetIndent("", "  ")
				return enc.Encode(agents)
			}
			printAgents(c.OutOrStdout(), agents, up)
			return nil
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print a JSON array instead of a table")
	return cmd
}

// listAgents asks the service for the agents it knows, else scans by
// itself; the recently terminated come from the service journal. up says
// whether the service answered.
func listAgents(ctx context.Context) ([]service.Agent, bool, error) {
	if ctx == nil {
		ctx = context.Background()
	}
	cctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	var l service.Listing
	err := servicewire.Do(cctx, service.OpAgents, nil, &l)
	up := err == nil
	agents := l.Agents
	if !up {
		if !errors.Is(err, servicewire.ErrNotRunning) {
			return nil, false, fmt.Errorf("ask the service for its agents: %w (stop it and start it again: sentinel service)", err)
		}
		if agents, err = service.Unsupervised(ctx); err != nil {
			return nil, false, fmt.Errorf("scan for agents: %w", err)
		}
	}
	if agents == nil {
		agents = []service.Agent{}
	}
	if path, err := service.JournalPath(); err == nil {
		if ended, err := service.RecentlyTerminated(path, time.Now().Add(-psRecent)); err == nil {
			// The service's list is as of its last scan: an agent ended
			// since is listed once, as terminated.
			over := map[[2]int64]bool{}
			for _, a := range ended {
				over[[2]int64{int64(a.PID), a.StartMS}] = true
			}
			live := agents[:0]
			for _, a := range agents {
				if !over[[2]int64{int64(a.PID), a.StartMS}] {
					live = append(live, a)
				}
			}
			agents = append(live, ended...)
		}
	}
	return agents, up, nil
}

func printAgents(w io.Writer, agents []service.Agent, up bool) {
	if !up {
		fmt.Fprintln(w, "The Sentinel service is not running: nothing is registered or adopted, so agents show as unsupervised (start it: sentinel service install).")
	}
	if len(agents) == 0 {
		fmt.Fprintln(w, "No agent processes.")
		return
	}
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "PID\tSTATE\tPROGRAM\tRUN\tSTARTED\tCWD")
	for _, a := range agents {
		run := a.RunID
		if run == "" {
			run = "-"
		}
		state := string(a.State)
		if a.State == service.StateTerminated && a.Reason != "" {
			state += " (" + a.Reason + ")"
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\n", strconv.Itoa(int(a.PID)), textsafe.Line(state), textsafe.Line(a.Program),
			textsafe.Line(run), a.Started.Local().Format("Jan 2 15:04:05"), textsafe.Line(a.Cwd))
	}
	tw.Flush()
}
