package runner

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/sentinelhq/sentinel/approvals"
	"github.com/sentinelhq/sentinel/internal/agentutil"
	"github.com/sentinelhq/sentinel/internal/coderstream"
	"github.com/sentinelhq/sentinel/internal/journal"
	"github.com/sentinelhq/sentinel/internal/procgroup"
	"github.com/sentinelhq/sentinel/internal/textsafe"
	"github.com/sentinelhq/sentinel/runner/acp"
	"github.com/sentinelhq/sentinel/runner/claude"
	"github.com/sentinelhq/sentinel/runner/coder"
	"github.com/sentinelhq/sentinel/runner/codex"
	"github.com/sentinelhq/sentinel/sandbox"
)

// prepareAgent lets a real agent's adapter set up its per-run state and
// declare what it needs from the sandbox (state dirs, API key variables,
// its model host).
func (r *containment) prepareAgent() error {
	p, ok := r.adapter.(coder.Preparer)
	if !ok {
		return nil
	}
	home, _ := os.UserHomeDir()
	exe, _ := os.Executable()
	got, err := p.PrepareRun(coder.Setup{Home: home, Workspace: r.ws.Dir, Source: r.ws.readDir(), Project: r.opts.Project.Root,
		StateDir: r.agentStateDir(), PolicyDir: r.policyDir(), Socket: r.socketPath(), Sentinel: exe,
		WhereAmI: r.whereAmI(), Contained: sandbox.PlacesEnforced(r.opts.Sandbox.Mode), InPlace: r.opts.InPlace})
	if err != nil {
		return err
	}
	for _, note := range got.Notes {
		r.emit(journal.System, KindNotice, note, nil)
	}
	r.needs = &got.Needs
	return nil
}

// agentStateDir is a real agent's per-run state directory (CLAUDE_CONFIG_DIR,
// CODEX_HOME), beside the workspace: writable in the sandbox, outside the
// read-only run directory, removed when the run ends (it may hold a copy of
// the person's login).
func (r *containment) agentStateDir() string { return r.ws.agentDir() }

// startCoder starts the coder the way its adapter speaks: Codex's
// app-server over JSON-RPC on pipes, headless Claude Code with stream-json
// on stdin, every other coder (Codex in place too) with the pty as its
// terminal.
func (r *coderStage) startCoder(cmd *exec.Cmd, task string) error {
	switch coder.TransportOf(r.adapter) {
	case coder.AppServer:
		if a, ok := r.adapter.(schemaWriter); ok {
			if err := r.checkCodexSchema(a); err != nil {
				return err
			}
		}
		return r.startCodex(cmd, task)
	case coder.ACP:
		if a, ok := r.adapter.(acpAgent); ok {
			return r.startACP(cmd, a, task)
		}
	case coder.StreamJSON:
		if a, ok := r.adapter.(streamJSONAgent); ok {
			return r.startClaudeHeadless(cmd, a, task)
		}
	}
	c, err := startUnderPTY(cmd, r.opts.Coder.Cols, r.opts.Coder.Rows)
	if err != nil {
		return err
	}
	r.setCoder(c)
	tail := &agentutil.TailBuffer{Max: 4 << 10}
	switch coder.FailureSourceOf(r.adapter) {
	case coder.ExitStatus:
		// A program with no protocol to say why it failed: its last
		// words are its error.
		c.failure = func() string { return exitFailure(c.code, tail.String()) }
	case coder.StopHook:
		c.failure = func() string {
			evs, _ := readRecord(r.dir)
			return lastStopFailure(evs)
		}
	case coder.StopHookOrExit:
		c.failure = func() string {
			evs, _ := readRecord(r.dir)
			if f := lastStopFailure(evs); f != "" {
				return f
			}
			return exitFailure(c.code, tail.String())
		}
	}
	r.pumpPTY(c, func(b []byte) {
		_, _ = tail.Write(b) // a TailBuffer never fails
		r.emitOutput(b)      // bounded per run: output_cap.go
	})
	return nil
}

// What the protocol coders are asked beyond Adapter, by the start that
// speaks their protocol.
type (
	// schemaWriter has the app-server write its protocol's schema.
	schemaWriter interface {
		SchemaArgv(dir string) ([]string, error)
		Env() []string
	}
	// acpAgent is an ACP agent's program and whether it reads files
	// through the client.
	acpAgent interface {
		Program() string
		ReadDelegation() bool
	}
	// streamJSONAgent encodes the task as its first input.
	streamJSONAgent interface {
		InitialInput(task string) []byte
	}
)

// lastStopFailure is the agent's error when its last turn ended on one
// (coderstream.CoderStopFailure, its Reason a value, never read back from
// the display text) rather than a stop; a later stop clears it.
func lastStopFailure(evs []journal.Event) string {
	failure := ""
	for _, ev := range evs {
		r, ok := approvals.AsReport(ev)
		switch {
		case !ok || ev.Lane != journal.Coder:
		case r.Kind == coderstream.CoderStopFailure:
			failure = r.Reason
		case r.Kind == coderstream.CoderStop:
			failure = ""
		}
	}
	return failure
}

// exitFailure is a program's failure when it exited with code: the status
// and its last line of output, or "" when it exited 0.
func exitFailure(code int, output string) string {
	if code == 0 {
		return ""
	}
	why := fmt.Sprintf("exited with status %d", code)
	lines := strings.Split(strings.TrimSpace(output), "\n")
	for i := len(lines) - 1; i >= 0; i-- {
		if l := strings.TrimSpace(textsafe.TermLine(lines[i])); l != "" {
			return why + ": " + l
		}
	}
	return why
}

func (r *coderStage) setCoder(c *coderProc) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if c.started.IsZero() {
		c.started = time.Now()
	}
	r.proc = c
}

func (r *coderStage) pumpPTY(c *coderProc, emit func([]byte)) {
	done, w := r.pumpDone, r.outRelay
	go func() {
		defer close(done)
		pumpOutput(w.reader(c.pty), 25*time.Millisecond, 64*1024, w.emit(emit))
	}()
}

// startClaudeHeadless runs `claude -p` with stream-json: the task and
// steering go in on a pipe (it refuses a terminal on stdin), its output
// stays on the pty and is decoded into the lanes.
func (r *coderStage) startClaudeHeadless(cmd *exec.Cmd, a streamJSONAgent, task string) error {
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return err
	}
	// The controlling terminal is then the child's fd 1 (the pty), not 0.
	procgroup.SetCtty(cmd, 1)
	c, err := startUnderPTY(cmd, r.opts.Coder.Cols, r.opts.Coder.Rows)
	if err != nil {
		return err
	}
	c.stdin = stdin
	r.setCoder(c)
	if err := c.write(a.InitialInput(task)); err != nil {
		return fmt.Errorf("send the task to claude: %w", err)
	}
	var dec claude.Decoder
	var failMu sync.Mutex
	var failure string // the last result's error; a later result that succeeded clears it
	c.failure = func() string {
		failMu.Lock()
		defer failMu.Unlock()
		return failure
	}
	r.pumpPTY(c, func(b []byte) {
		for _, l := range dec.Write(b) {
			r.emit(l.Lane, l.Kind, l.Text, l.Data)
			if l.Kind == coderstream.Result {
				failMu.Lock()
				failure = l.Err
				failMu.Unlock()
				c.closeInput() // claude -p ends when its input does
			}
		}
	})
	return nil
}

// startCodex drives `codex app-server` over JSON-RPC on pipes; its approval
// requests go to the broker in process.
func (r *coderStage) startCodex(cmd *exec.Cmd, task string) error {
	logf, err := os.Create(filepath.Join(r.dir, "codex-stderr.log"))
	if err != nil {
		return err
	}
	sess, err := codex.Start(context.Background(), cmd, codex.Config{
		Task: task, Workspace: r.ws.Dir,
		Asker:  codex.AskerFunc(r.guard.broker.Decide),
		OnLine: func(l codex.Line) { r.emit(l.Lane, l.Kind, l.Text, l.Data) },
		Stderr: logf,
		Notes:  r.guard.broker.TakeCoderNotes,
	})
	if err != nil {
		logf.Close()
		return err
	}
	r.adoptSession(cmd, sess.Steer, sess.Stop, sess.Wait, sess.Failure, logf)
	return nil
}

// startACP drives an ACP agent over JSON-RPC on pipes; its permission and
// file requests go to the broker in process.
func (r *coderStage) startACP(cmd *exec.Cmd, a acpAgent, task string) error {
	logf, err := os.Create(filepath.Join(r.dir, "agent-stderr.log"))
	if err != nil {
		return err
	}
	sess, err := acp.Start(context.Background(), cmd, acp.Config{
		Task: task, Workspace: r.ws.Dir, Ask: r.guard.broker.Decide, Stderr: logf, NoReadDelegation: !a.ReadDelegation(), Agent: a.Program(),
		OnLine: func(l acp.Line) { r.emit(l.Lane, l.Kind, l.Text, l.Data) },
	})
	if err != nil {
		logf.Close()
		return err
	}
	r.adoptSession(cmd, sess.Steer, sess.Stop, sess.Wait, sess.Failure, logf)
	return nil
}

// adoptSession makes a coder spoken to over a protocol the run's coder:
// steering is a protocol message, and its end is the session's.
func (r *coderStage) adoptSession(cmd *exec.Cmd, steer func(string) error, stop func(time.Duration), wait func() int, failure func() string, logf *os.File) {
	p := &coderProc{cmd: cmd, done: make(chan struct{}), steer: steer, stopFn: stop, failure: failure}
	go func() {
		p.code = wait()
		logf.Close()
		close(p.done)
	}()
	r.setCoder(p)
	close(r.pumpDone) // no pty: the session journals as it goes
}
