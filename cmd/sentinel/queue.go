package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/sentinelhq/sentinel/approvals"
	"github.com/sentinelhq/sentinel/approvals/queue"
	"github.com/sentinelhq/sentinel/internal/servicewire"
	"github.com/sentinelhq/sentinel/internal/textsafe"
)

// queueItem is one line of sentinel queue --json: what a script needs,
// never the request's raw input; a write's or edit's content (as the run
// sent it: a JSON string is safe to print) and the hash that approves it.
type queueItem struct {
	ID           string       `json:"id"`
	Run          string       `json:"run"`
	Project      string       `json:"project"`
	Coder        string       `json:"coder,omitempty"`
	Kind         string       `json:"kind"`
	Summary      string       `json:"summary"`
	Policy       queue.Why    `json:"policy"`
	WaitingSince time.Time    `json:"waiting_since"`
	AtTerminal   bool         `json:"at_terminal"`
	Path         string       `json:"path,omitempty"`
	Content      []queue.Line `json:"content,omitempty"`
	Seen         string       `json:"seen,omitempty"` // sentinel queue approve ID --seen SEEN
}

func newQueueCmd() *cobra.Command {
	var asJSON bool
	q := &cobra.Command{
		Use:   "queue",
		Short: "List the approval requests waiting across this machine's runs, and answer them",
		Long: `sentinel queue lists the requests that runs on this machine are waiting on a
person for (oldest first), from the user service (sentinel service). Answer
one with sentinel queue approve ID or sentinel queue deny ID; the run that
asked applies the answer. A write or edit is approved only once its content
was shown: sentinel queue show ID prints it, with the hash to approve it by
(sentinel queue approve ID --seen HASH). sentinel console shows the same queue with the
run's own card.`,
		Example: `  sentinel queue
  sentinel queue --json
  sentinel queue show 3f9a1c2b
  sentinel queue approve 3f9a1c2b --remember project
  sentinel queue approve 5d0e7a91 --seen 9c1f2b3a4d5e
  sentinel queue deny 3f9a1c2b --message "use the staging host"`,
		Args: noArgs,
		RunE: func(c *cobra.Command, _ []string) error {
			entries, err := queue.Pending(c.Context())
			if err != nil {
				return err
			}
			if asJSON {
				return writeQueueJSON(c.OutOrStdout(), entries)
			}
			writeQueueTable(c.OutOrStdout(), entries, time.Now())
			return nil
		},
	}
	q.Flags().BoolVar(&asJSON, "json", false, "print the pending requests as a JSON array")

	var remember, seen string
	approve := &cobra.Command{
		Use:   "approve ID",
		Short: "Approve a waiting request (once, or remembered with --remember)",
		Args:  wantArgs(1, 1, "which request? give its id (sentinel queue lists them)", "sentinel queue approve 3f9a1c2b"),
		RunE: func(c *cobra.Command, args []string) error {
			a := queue.Answer{ID: args[0], Decision: queue.Approve, Via: "queue", Seen: seen}
			switch approvals.Scope(remember) {
			case "":
			case approvals.ScopeRun, approvals.ScopeProject, approvals.ScopeUser:
				a.Remember = approvals.Scope(remember)
			default:
				return usageError{fmt.Errorf("--remember %q: want run, project or user", remember)}
			}
			return answerQueue(c, a)
		},
	}
	approve.Flags().StringVar(&remember, "remember", "", "remember the approval in `SCOPE` (run, project or user), at the narrowest breadth the run's card offers")
	approve.Flags().StringVar(&seen, "seen", "", "with a write or edit: the `HASH` sentinel queue show ID printed under its content")
	var message string
	deny := &cobra.Command{
		Use:   "deny ID",
		Short: "Deny a waiting request, optionally telling the coder why",
		Args:  wantArgs(1, 1, "which request? give its id (sentinel queue lists them)", "sentinel queue deny 3f9a1c2b"),
		RunE: func(c *cobra.Command, args []string) error {
			return answerQueue(c, queue.Answer{ID: args[0], Decision: queue.Deny, Message: message, Via: "queue"})
		},
	}
	deny.Flags().StringVar(&message, "message", "", "what the coder is told (`TEXT`)")
	q.AddCommand(newQueueShowCmd(), approve, deny)
	return q
}

func answerQueue(c *cobra.Command, a queue.Answer) error {
	ctx, cancel := context.WithTimeout(c.Context(), 10*time.Second)
	defer cancel()
	got, err := queue.SendNoted(ctx, a)
	if err != nil {
		var re *servicewire.RemoteError
		if errors.As(err, &re) {
			return errors.New(textsafe.Line(re.Msg))
		}
		return err
	}
	done := "approved"
	if a.Decision == queue.Deny {
		done = "denied"
	}
	fmt.Fprintf(c.OutOrStdout(), "%s %s; the run that asked applies it\n", a.ID, done)
	if got.Note != "" {
		fmt.Fprintln(c.OutOrStdout(), textsafe.Line(got.Note))
	}
	return nil
}

func writeQueueJSON(w io.Writer, entries []queue.Entry) error {
	items := make([]queueItem, 0, len(entries))
	for _, e := range entries {
		items = append(items, queueItem{ID: e.ID, Run: e.Run, Project: e.Project, Coder: e.Coder, Kind: string(e.Kind),
			Summary: e.Summary, Policy: e.Policy, WaitingSince: e.WaitingSince, AtTerminal: e.AtTerminal})
		if seen := queue.SeenOf(e.Request); seen != "" {
			it := &items[len(items)-1]
			it.Path = e.Request.Path
			if lines, ok := queue.ContentOf(e.Request); ok {
				it.Content, it.Seen = lines, seen
			}
		}
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(items)
}

func writeQueueTable(w io.Writer, entries []queue.Entry, now time.Time) {
	if len(entries) == 0 {
		fmt.Fprintln(w, "nothing is waiting for you")
		return
	}
	fmt.Fprintf(w, "%-9s %-8s %-8s %-22s %-18s %s\n", "ID", "WAITING", "KIND", "RUN", "PROJECT", "REQUEST")
	for _, e := range entries {
		fmt.Fprintf(w, "%-9s %-8s %-8s %-22s %-18s %s\n", e.ID, ago(now.Sub(e.WaitingSince)), textsafe.Line(string(e.Kind)),
			textsafe.Line(e.Run), textsafe.Line(shortProject(e.Project)), textsafe.Line(e.Summary))
		if e.Policy.Reason != "" {
			fmt.Fprintf(w, "%-9s   policy: %s\n", "", textsafe.Line(e.Policy.Reason))
		}
		if queue.SeenOf(e.Request) != "" {
			fmt.Fprintf(w, "%-9s   what it writes: sentinel queue show %s (approve once you have read it)\n", "", e.ID)
		}
	}
}

// shortProject is the project's last two path elements.
func shortProject(p string) string {
	parts := strings.Split(strings.TrimRight(p, "/"), "/")
	if len(parts) > 2 {
		return strings.Join(parts[len(parts)-2:], "/")
	}
	return p
}

// ago is a short age: 12s, 4m, 3h, 2d.
func ago(d time.Duration) string {
	switch {
	case d < time.Minute:
		return fmt.Sprintf("%ds", int(d.Seconds()))
	case d < time.Hour:
		return fmt.Sprintf("%dm", int(d.Minutes()))
	case d < 48*time.Hour:
		return fmt.Sprintf("%dh", int(d.Hours()))
	}
	return fmt.Sprintf("%dd", int(d.Hours()/24))
}
