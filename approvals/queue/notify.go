package queue

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/sentinelhq/sentinel/internal/hostbin"
)

// Notifier nudges the person when a request starts waiting with nobody at
// the run's terminal: a desktop notification where one is available, and
// the person's own [notify] command.
type Notifier struct {
	// Command runs through sh -c (the person's own, outside any sandbox)
	// with a Nudge as JSON on stdin; "" runs nothing.
	Command string
	// Desktop sends a desktop notification (notify-send, else gdbus to
	// org.freedesktop.Notifications); where neither is, it is skipped.
	Desktop bool
	// Timeout bounds each (default 10 s).
	Timeout time.Duration
	// Log records a failure (the command's, never the desktop's absence);
	// a failure is never fatal.
	Log func(string)
}

// Nudge is what the [notify] command reads on stdin: never the request's
// input, the environment or anything but this; the summary is made safe
// for a terminal and has secret-looking parts redacted.
type Nudge struct {
	ID           string    `json:"id"`
	Run          string    `json:"run"`
	Project      string    `json:"project"`
	Kind         string    `json:"kind"`
	Summary      string    `json:"summary"`
	WaitingSince time.Time `json:"waiting_since"`
}

// NudgeOf is the nudge for e.
func NudgeOf(e Entry) Nudge {
	return Nudge{ID: e.ID, Run: e.Run, Project: e.Project, Kind: string(e.Kind), Summary: e.Summary, WaitingSince: e.WaitingSince}
}

// Notify nudges for e; it returns when both are done (call it in its own
// goroutine).
func (n Notifier) Notify(e Entry) {
	timeout := n.Timeout
	if timeout <= 0 {
		timeout = 10 * time.Second
	}
	nd := NudgeOf(e)
	if n.Desktop {
		n.desktop(nd, timeout)
	}
	if strings.TrimSpace(n.Command) != "" {
		if err := n.command(nd, timeout); err != nil && n.Log != nil {
			n.Log(fmt.Sprintf("[notify] command failed for request %s: %v", e.ID, err))
		}
	}
}

func (n Notifier) command(nd Nudge, timeout time.Duration) error {
	body, err := json.Marshal(nd)
	if err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	sh, err := hostbin.Find("sh") // the system's shell, never one from PATH
	if err != nil {
		return err
	}
	cmd := exec.CommandContext(ctx, sh, "-c", n.Command)
	cmd.Stdin = bytes.NewReader(append(body, '\n'))
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	cmd.WaitDelay = time.Second
	err = cmd.Run()
	if ctx.Err() != nil {
		return fmt.Errorf("no end within %s (it was stopped)", timeout)
	}
	if err != nil {
		msg := strings.TrimSpace(out.String())
		if len(msg) > 200 {
			msg = msg[:200] + "…"
		}
		return fmt.Errorf("%v: %s", err, msg)
	}
	return nil
}

// desktop shows a notification if this machine has a way to; none is not
// an error.
func (n Notifier) desktop(nd Nudge, timeout time.Duration) {
	title := "Sentinel: a request waits for you"
	text := fmt.Sprintf("%s in %s: %s (sentinel console)", nd.Kind, filepath.Base(nd.Project), nd.Summary)
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	if p, err := hostbin.Person("notify-send"); err == nil {
		_ = exec.CommandContext(ctx, p, "--app-name=Sentinel", title, text).Run()
		return
	}
	if p, err := hostbin.Person("gdbus"); err == nil {
		_ = exec.CommandContext(ctx, p, "call", "--session", "--dest", "org.freedesktop.Notifications",
			"--object-path", "/org/freedesktop/Notifications", "--method", "org.freedesktop.Notifications.Notify",
			"Sentinel", "0", "", title, text, "[]", "{}", "-1").Run()
	}
}
