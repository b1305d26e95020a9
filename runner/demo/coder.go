package demo

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/sentinelhq/sentinel/approvals"
	"github.com/sentinelhq/sentinel/internal/coderstream"
	"github.com/sentinelhq/sentinel/internal/journal"
	"github.com/sentinelhq/sentinel/policy"
)

// Broker is the part of the approvals client the demo coder uses: the same
// calls a real agent's hook command makes.
type Broker interface {
	Ask(ctx context.Context, req approvals.Request) (approvals.Decision, error)
	// Report tells the tool lane what an allowed action did.
	Report(ctx context.Context, r approvals.Report) error
}

// Coder runs a scenario.
type Coder struct {
	Scenario *Scenario
	Task     string
	Dir      string // the workspace
	Broker   Broker
	In       io.Reader // steering arrives here, a line at a time
	Out      io.Writer
	steers   chan string
	steered  bool
	// unawaited is a steer that came since the last await step: that
	// step then has nothing left to wait for.
	unawaited bool
}

const (
	bold  = "\x1b[1m"
	dim   = "\x1b[2m"
	red   = "\x1b[31m"
	green = "\x1b[32m"
	cyan  = "\x1b[36m"
	reset = "\x1b[0m"
)

// Run plays the scenario and returns the exit status.
func (c *Coder) Run(ctx context.Context) int {
	c.steers = make(chan string, 16)
	if c.In != nil {
		go func() {
			sc := bufio.NewScanner(c.In)
			for sc.Scan() {
				if t := strings.TrimSpace(sc.Text()); t != "" {
					c.steers <- t
				}
			}
		}()
	}
	if c.Task != "" {
		c.say("My task: " + c.Task)
	}
	for i, st := range c.Scenario.Steps {
		c.takeSteering(0)
		if st.Steered && !c.steered {
			continue
		}
		if i > 0 && c.Scenario.pace > 0 {
			time.Sleep(c.Scenario.pace)
		}
		switch {
		case st.Say != "":
			c.say(st.Say)
		case st.Shell != "":
			c.shell(ctx, st)
		case st.Write != "":
			c.write(ctx, st)
		case st.Edit != "":
			c.edit(ctx, st)
		case st.Net != "":
			c.net(ctx, st)
		case st.Await != "" && c.unawaited:
			c.unawaited = false // the guidance this wait was for came early
		case st.Await != "":
			c.unawaited = false
			d, _ := time.ParseDuration(st.Await)
			fmt.Fprintf(c.Out, "%s… waiting up to %s for guidance%s\n", dim, d, reset)
			c.takeSteering(d)
			c.unawaited = false // what came during this wait was for it
		case st.Done != "":
			fmt.Fprintf(c.Out, "%s%s✔ Done:%s %s\n", bold, green, reset, st.Done)
			return 0
		case st.Fail != 0:
			fmt.Fprintf(c.Out, "%s%s✘ Giving up%s (exit %d)\n", bold, red, reset, st.Fail)
			return st.Fail
		}
	}
	fmt.Fprintf(c.Out, "%s✔ Done.%s\n", green, reset)
	return 0
}

// takeSteering acknowledges steering messages that have arrived; when none
// has and wait > 0, it waits that long for the first one.
func (c *Coder) takeSteering(wait time.Duration) {
	got := false
	for {
		select {
		case t := <-c.steers:
			c.ack(t)
			got = true
			continue
		default:
		}
		if got || wait <= 0 {
			return
		}
		select {
		case t := <-c.steers:
			c.ack(t)
			got = true
		case <-time.After(wait):
			return
		}
	}
}

func (c *Coder) ack(t string) {
	c.steered = true
	c.unawaited = true
	fmt.Fprintf(c.Out, "%s↪ Steering received:%s %q — will do.\n", cyan, reset, t)
}

func (c *Coder) say(s string) { fmt.Fprintf(c.Out, "%s●%s %s\n", bold, reset, s) }

// ask sends a request and prints the decision the way an agent shows a
// refused tool call. It returns whether the action may proceed.
func (c *Coder) ask(ctx context.Context, st Step, req approvals.Request) bool {
	req.Adapter = "demo"
	req.ToolCallID = st.ID
	if req.Cwd == "" {
		req.Cwd = c.Dir
	}
	d, err := c.Broker.Ask(ctx, req)
	if err != nil || !d.Allowed() {
		reason := d.Reason
		if err != nil {
			reason = err.Error()
		}
		fmt.Fprintf(c.Out, "%s✘ denied%s (%s): %s\n", red, reset, d.By, reason)
		if d.Message != "" {
			fmt.Fprintf(c.Out, "  %smessage for me:%s %s\n", bold, reset, d.Message)
		}
		return false
	}
	if strings.HasPrefix(d.By, "template:") {
		// the template's name says what the person remembered
		fmt.Fprintf(c.Out, "%s✔ allowed%s: %s\n", green, reset, d.Reason)
		return true
	}
	fmt.Fprintf(c.Out, "%s✔ allowed%s (%s)\n", green, reset, d.By)
	return true
}

func (c *Coder) shell(ctx context.Context, st Step) {
	fmt.Fprintf(c.Out, "%s$ %s%s\n", bold, st.Shell, reset)
	if !c.ask(ctx, st, approvals.Request{Kind: policy.KindShell, Command: st.Shell}) {
		return
	}
	cmd := exec.CommandContext(ctx, "sh", "-c", st.Shell)
	cmd.Dir = c.Dir
	out, err := cmd.CombinedOutput()
	code := 0
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		code = ee.ExitCode()
	} else if err != nil {
		code = -1
		out = append(out, []byte(err.Error())...)
	}
	printIndented(c.Out, string(out), 20)
	data, _ := json.Marshal(map[string]any{"command": st.Shell, "output": tail(string(out), 2000)})
	_ = c.Broker.Report(ctx, approvals.Report{Lane: "tool", Kind: coderstream.Result, Adapter: "demo", Tool: "shell",
		ToolCallID: st.ID, ExitCode: &code, Text: fmt.Sprintf("%s → exit %d", st.Shell, code), Data: data})
}

func (c *Coder) path(p string) string {
	if filepath.IsAbs(p) {
		return p
	}
	return filepath.Join(c.Dir, p)
}

func (c *Coder) write(ctx context.Context, st Step) {
	path := c.path(st.Write)
	fmt.Fprintf(c.Out, "%s✎ write %s%s (%d bytes)\n", bold, st.Write, reset, len(st.Content))
	// the input carries the content, as Claude Code's Write does: the card shows it
	in, _ := json.Marshal(map[string]string{"file_path": path, "content": st.Content})
	if !c.ask(ctx, st, approvals.Request{Kind: policy.KindWrite, Path: path, Input: in}) {
		return
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err == nil {
		err = os.WriteFile(path, []byte(st.Content), 0o644)
		c.reportFile(ctx, coderstream.Write, st, path, err)
		return
	}
}

func (c *Coder) edit(ctx context.Context, st Step) {
	path := c.path(st.Edit)
	b, err := os.ReadFile(path)
	if err != nil || !strings.Contains(string(b), st.Old) {
		fmt.Fprintf(c.Out, "%s● %s has nothing to change here (not found); skipping that edit.%s\n", dim, st.Edit, reset)
		return
	}
	fmt.Fprintf(c.Out, "%s✎ edit %s%s\n", bold, st.Edit, reset)
	for _, l := range strings.Split(st.Old, "\n") {
		fmt.Fprintf(c.Out, "  %s- %s%s\n", red, l, reset)
	}
	for _, l := range strings.Split(st.New, "\n") {
		fmt.Fprintf(c.Out, "  %s+ %s%s\n", green, l, reset)
	}
	in, _ := json.Marshal(map[string]string{"file_path": path, "old_string": st.Old, "new_string": st.New})
	if !c.ask(ctx, st, approvals.Request{Kind: policy.KindEdit, Path: path, Input: in}) {
		return
	}
	err = os.WriteFile(path, []byte(strings.Replace(string(b), st.Old, st.New, 1)), 0o644)
	c.reportFile(ctx, coderstream.Edit, st, path, err)
}

func (c *Coder) reportFile(ctx context.Context, kind journal.Kind, st Step, path string, err error) {
	text := string(kind) + " " + path
	if err != nil {
		text += " failed: " + err.Error()
		fmt.Fprintf(c.Out, "  %s%s%s\n", red, err, reset)
	}
	data, _ := json.Marshal(map[string]any{"path": path, "ok": err == nil})
	_ = c.Broker.Report(ctx, approvals.Report{Lane: "tool", Kind: kind, Adapter: "demo", Tool: string(kind),
		ToolCallID: st.ID, Text: text, Data: data})
}

func (c *Coder) net(ctx context.Context, st Step) {
	host, port := netTarget(st.Net)
	fmt.Fprintf(c.Out, "%s⇄ fetch https://%s/%s\n", bold, host, reset)
	if !c.ask(ctx, st, approvals.Request{Kind: policy.KindNet, Host: host, Port: port, URL: "https://" + host + "/"}) {
		return
	}
	fmt.Fprintf(c.Out, "  %s(the demo coder does not actually download anything)%s\n", dim, reset)
}

// netTarget splits a net step's HOST[:PORT]; the port defaults to 443.
func netTarget(s string) (string, int) {
	host, port := s, 443
	if h, p, ok := strings.Cut(s, ":"); ok {
		host = h
		if n, err := strconv.Atoi(p); err == nil {
			port = n
		}
	}
	return host, port
}

func printIndented(w io.Writer, s string, max int) {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	if len(lines) == 1 && lines[0] == "" {
		return
	}
	for i, l := range lines {
		if i == max {
			fmt.Fprintf(w, "  %s… %d more lines%s\n", dim, len(lines)-max, reset)
			return
		}
		fmt.Fprintf(w, "  %s\n", l)
	}
}

func tail(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[len(s)-n:]
}
