package codex

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os/exec"
	"strings"
	"sync"
	"time"

	"github.com/sentinelhq/sentinel/internal/agentutil"
	"github.com/sentinelhq/sentinel/internal/coderstream"
	"github.com/sentinelhq/sentinel/internal/journal"
	"github.com/sentinelhq/sentinel/internal/procgroup"
)

// ApprovalPolicy and SandboxMode are what every thread is started with.
//
// "untrusted" makes Codex ask before every command it does not itself
// consider read-only-safe, and before every file change; ExecPolicyRules
// (written into CODEX_HOME/rules by WriteConfig) turn its built-in safe list
// into "prompt", so those come to Sentinel too. "danger-full-access" turns
// Codex's own sandbox off: Sentinel's sandbox is the boundary, Codex's
// nested bubblewrap/Landlock sandbox may not start inside it, and under a
// read-only or workspace-write Codex sandbox a command Codex thinks runs
// safely sandboxed would not be asked about at all.
//
// ApprovalsReviewer "user" keeps every approval request coming to the
// client (Sentinel): "auto_review" would let a Codex subagent decide them.
const (
	ApprovalPolicy    = "untrusted"
	SandboxMode       = "danger-full-access"
	ApprovalsReviewer = "user"
)

// Config configures a Session.
type Config struct {
	Task      string // the first user message
	Workspace string // the thread's cwd (absolute)
	Model     string // optional: overrides config.toml's model
	Asker     Asker  // the broker; required
	// OnLine receives every journal-ready line, in order, from one goroutine.
	OnLine func(Line)
	// Stderr receives the app-server's stderr (its logs); nil keeps only the
	// last few KiB for error messages.
	Stderr io.Writer
	// Trace, when set, sees every JSON-RPC line ("<" from codex, ">" to it).
	Trace func(dir string, line []byte)
	// Notes, when set, returns (and forgets) what Sentinel refused outside
	// the approval path while a tool ran, e.g. a host the proxy turned away
	// (the broker's TakeCoderNotes); it is steered to the model after each
	// tool item (notes.go).
	Notes func() string
}

// Session is one `codex app-server` process driven by Sentinel: one thread,
// started with the task; it ends when the thread's turn completes.
type Session struct {
	cfg    Config
	cmd    *exec.Cmd
	stdin  io.WriteCloser
	rpc    *conn
	ctx    context.Context
	cancel context.CancelFunc
	stderr *agentutil.TailBuffer

	mu       sync.Mutex
	threadID string
	turnID   string // the active turn; "" between turns
	status   string // the last turn's status
	turnErr  string // the completed turn's error, or the last error notification's
	stopped  bool   // Sentinel ended the session (Stop)
	changes  map[string][]fileChange
	ended    chan struct{} // closed when the turn has completed
	endOnce  sync.Once

	exited   chan struct{}
	exitCode int
	waitErr  error
}

// Start starts cmd (the sandboxed `codex app-server`, from Argv; not yet
// started) with pipes on stdin and stdout, then initializes the app-server,
// starts a thread in cfg.Workspace and a turn with cfg.Task. Only Stdin,
// Stdout, Stderr and SysProcAttr.Setsid of cmd are touched (Setsid when the
// caller set neither Setsid nor Setpgid, so the whole tree can be ended).
func Start(ctx context.Context, cmd *exec.Cmd, cfg Config) (*Session, error) {
	if cfg.Asker == nil {
		return nil, errors.New("codex: no approval broker to ask (Config.Asker is nil)")
	}
	if cfg.Workspace == "" {
		cfg.Workspace = cmd.Dir
	}
	s := &Session{cfg: cfg, cmd: cmd, changes: map[string][]fileChange{}, ended: make(chan struct{}),
		exited: make(chan struct{}), stderr: &agentutil.TailBuffer{Max: 16 << 10}}
	s.ctx, s.cancel = context.WithCancel(context.Background())
	var err error
	if s.stdin, err = cmd.StdinPipe(); err != nil {
		return nil, err
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	cmd.Stderr = s.stderr
	if cfg.Stderr != nil {
		cmd.Stderr = io.MultiWriter(s.stderr, cfg.Stderr)
	}
	procgroup.Session(cmd)
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("start codex app-server: %w", err)
	}
	s.rpc = newConn(s.stdin)
	s.rpc.trace = cfg.Trace
	readDone := make(chan struct{})
	go func() {
		defer close(readDone)
		s.rpc.readLoop(stdout, s.handle)
	}()
	go func() {
		<-readDone // all output read before Wait closes the pipe
		err := cmd.Wait()
		s.exitCode, s.waitErr = agentutil.ExitStatus(err), err
		s.finish("")
		s.cancel()
		close(s.exited)
	}()
	if err := s.begin(ctx); err != nil {
		s.Stop(2 * time.Second)
		if tail := strings.TrimSpace(s.stderr.String()); tail != "" {
			err = fmt.Errorf("%w (codex said: %s)", err, agentutil.LastLines(tail, 5))
		}
		return nil, err
	}
	return s, nil
}

// begin is the handshake: initialize, thread/start, turn/start.
func (s *Session) begin(ctx context.Context) error {
	ctx, cancel := context.WithTimeout(ctx, 2*time.Minute)
	defer cancel()
	init := map[string]any{"clientInfo": map[string]any{"name": "sentinel", "title": "Sentinel", "version": "0"}}
	if err := s.rpc.call(ctx, "initialize", init, nil); err != nil {
		return fmt.Errorf("codex: initialize: %w", err)
	}
	if err := s.rpc.notify("initialized", nil); err != nil {
		return err
	}
	params := map[string]any{"cwd": s.cfg.Workspace, "approvalPolicy": ApprovalPolicy, "sandbox": SandboxMode,
		"approvalsReviewer": ApprovalsReviewer}
	if s.cfg.Model != "" {
		params["model"] = s.cfg.Model
	}
	var started struct {
		Thread struct {
			ID string `json:"id"`
		} `json:"thread"`
		ApprovalPolicy    json.RawMessage `json:"approvalPolicy"`
		ApprovalsReviewer json.RawMessage `json:"approvalsReviewer"`
		Sandbox           json.RawMessage `json:"sandbox"`
	}
	if err := s.rpc.call(ctx, "thread/start", params, &started); err != nil {
		return fmt.Errorf("codex: start a thread: %w", err)
	}
	if started.Thread.ID == "" {
		return errors.New("codex: thread/start answered without a thread id")
	}
	// Fail closed if Codex did not take the approval policy: without it
	// commands would run without asking.
	var pol string
	if json.Unmarshal(started.ApprovalPolicy, &pol) != nil || pol != ApprovalPolicy {
		return fmt.Errorf("codex: the thread runs with approval policy %s, not %q; refusing to run it (check CODEX_HOME/config.toml and managed requirements)", started.ApprovalPolicy, ApprovalPolicy)
	}
	// The same for who reviews approvals: a Codex subagent must not.
	var rev string
	if len(started.ApprovalsReviewer) > 0 && (json.Unmarshal(started.ApprovalsReviewer, &rev) != nil || rev != ApprovalsReviewer) {
		return fmt.Errorf("codex: the thread's approvals are reviewed by %s, not %q; refusing to run it (check CODEX_HOME/config.toml and managed requirements)", started.ApprovalsReviewer, ApprovalsReviewer)
	}
	s.mu.Lock()
	s.threadID = started.Thread.ID
	s.mu.Unlock()
	return s.startTurn(ctx, s.cfg.Task)
}

func textInput(text string) []any {
	return []any{map[string]any{"type": "text", "text": text, "text_elements": []any{}}}
}

func (s *Session) startTurn(ctx context.Context, text string) error {
	s.mu.Lock()
	thread := s.threadID
	s.mu.Unlock()
	var res struct {
		Turn struct {
			ID string `json:"id"`
		} `json:"turn"`
	}
	if err := s.rpc.call(ctx, "turn/start", map[string]any{"threadId": thread, "input": textInput(text)}, &res); err != nil {
		return fmt.Errorf("codex: start a turn: %w", err)
	}
	s.mu.Lock()
	if s.turnID == "" && s.status == "" {
		s.turnID = res.Turn.ID
	}
	s.mu.Unlock()
	return nil
}

// Steer sends text to the model as a user message in the running turn
// (turn/steer); Codex takes it in at its next model request.
func (s *Session) Steer(text string) error {
	ctx, cancel := context.WithTimeout(s.ctx, 30*time.Second)
	defer cancel()
	return s.steerTurn(ctx, "", text)
}

func (s *Session) steerTurn(ctx context.Context, turnID, text string) error {
	s.mu.Lock()
	thread := s.threadID
	if turnID == "" {
		turnID = s.turnID
	}
	s.mu.Unlock()
	select {
	case <-s.ended:
		return errors.New("codex: the turn has ended; nothing to steer")
	default:
	}
	if turnID == "" {
		return errors.New("codex: no turn is running; nothing to steer")
	}
	ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	return s.rpc.call(ctx, "turn/steer", map[string]any{"threadId": thread, "expectedTurnId": turnID, "input": textInput(text)}, nil)
}

// handle is called by the read loop for every server request and
// notification, in order.
func (s *Session) handle(m message) {
	if len(m.ID) > 0 { // a request from the server
		switch m.Method {
		case MethodCommandApproval, MethodFileChangeApproval, MethodExecApprovalV1, MethodPatchApprovalV1:
			go s.handleApproval(m)
		case MethodElicitation:
			if isMCPToolApproval(m.Params) {
				go s.handleMCPApproval(m)
				return
			}
			_ = s.rpc.reply(m.ID, map[string]any{"action": "decline"})
			s.emit(Line{Lane: journal.System, Kind: coderstream.ApprovalError, Text: "codex: declined an MCP elicitation (Sentinel does not answer those)", Data: jsonOrNil(m.Params)})
		default:
			_ = s.rpc.replyError(m.ID, -32601, "Sentinel does not grant "+m.Method)
			s.emit(Line{Lane: journal.System, Kind: coderstream.ApprovalError, Text: "codex: refused " + m.Method + " (Sentinel does not grant it)", Data: jsonOrNil(m.Params)})
		}
		return
	}
	switch m.Method {
	case "item/started", "item/completed", "item/fileChange/patchUpdated":
		s.track(m.Params)
	case "turn/started":
		var p struct {
			Turn struct {
				ID string `json:"id"`
			} `json:"turn"`
		}
		if json.Unmarshal(m.Params, &p) == nil && p.Turn.ID != "" {
			s.mu.Lock()
			s.turnID = p.Turn.ID
			s.mu.Unlock()
		}
	}
	for _, l := range DecodeNotification(m.Method, m.Params) {
		s.emit(l)
	}
	s.noteAfterTool(m.Method, m.Params)
	switch m.Method {
	case "error":
		if msg := errorMessage(m.Params); msg != "" {
			s.mu.Lock()
			s.turnErr = msg
			s.mu.Unlock()
		}
	case "turn/completed":
		var p struct {
			Turn struct {
				Status string `json:"status"`
				Error  *struct {
					Message string `json:"message"`
				} `json:"error"`
			} `json:"turn"`
		}
		_ = json.Unmarshal(m.Params, &p)
		if p.Turn.Error != nil && p.Turn.Error.Message != "" {
			s.mu.Lock()
			s.turnErr = p.Turn.Error.Message
			s.mu.Unlock()
		}
		s.finish(p.Turn.Status)
	}
}

// errorMessage is an error notification's message.
func errorMessage(params json.RawMessage) string {
	var p struct {
		Error struct {
			Message string `json:"message"`
		} `json:"error"`
	}
	_ = json.Unmarshal(params, &p)
	return p.Error.Message
}

// Failure is Codex's own error when its turn failed ("" when the turn
// completed, or Sentinel ended it): the failed turn's error, else the last
// error it sent; for an app-server that ended without completing its turn,
// the end of what it wrote on stderr.
func (s *Session) Failure() string {
	s.mu.Lock()
	status, msg, stopped := s.status, s.turnErr, s.stopped
	s.mu.Unlock()
	switch {
	case stopped || status == "completed" || status == "interrupted":
		return ""
	case status == "failed":
		if msg == "" {
			msg = "its turn failed without saying why"
		}
		return msg
	}
	// The app-server ended without completing the turn.
	why := "codex app-server ended before its turn completed"
	if msg != "" {
		why += ": " + msg
	}
	if tail := strings.TrimSpace(s.stderr.String()); tail != "" {
		why += " (codex said: " + agentutil.LastLines(tail, 3) + ")"
	}
	return why
}

// track remembers each file change item's paths: the approval request for
// it names only the item.
func (s *Session) track(params json.RawMessage) {
	var p struct {
		Item    item         `json:"item"`
		ItemID  string       `json:"itemId"`
		Changes []fileChange `json:"changes"`
	}
	if json.Unmarshal(params, &p) != nil {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if p.Item.Type == "fileChange" && p.Item.ID != "" {
		s.changes[p.Item.ID] = p.Item.Changes
	} else if p.ItemID != "" && len(p.Changes) > 0 {
		s.changes[p.ItemID] = p.Changes
	}
}

// finish marks the turn over and closes the app-server's input, which ends it.
func (s *Session) finish(status string) {
	s.endOnce.Do(func() {
		s.mu.Lock()
		s.status, s.turnID = status, ""
		s.mu.Unlock()
		close(s.ended)
		_ = s.stdin.Close()
	})
}

func (s *Session) emit(l Line) {
	if s.cfg.OnLine != nil {
		s.cfg.OnLine(l)
	}
}

// TurnDone is closed when the turn has completed (or the app-server ended).
func (s *Session) TurnDone() <-chan struct{} { return s.ended }

// Status is the completed turn's status (completed, interrupted, failed),
// or "" when the app-server ended without completing it.
func (s *Session) Status() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.status
}

// Exited is closed when the app-server process has exited.
func (s *Session) Exited() <-chan struct{} { return s.exited }

// Wait waits for the process to exit and returns its exit status (128+n
// for a signal, -1 when it could not be waited for).
func (s *Session) Wait() int {
	<-s.exited
	return s.exitCode
}

// Pid is the app-server's process id (its process group id too, unless the
// caller set Setpgid with another Pgid).
func (s *Session) Pid() int { return s.cmd.Process.Pid }

// Stop ends the session: the turn is interrupted, the input closed and,
// after grace, the process group killed.
func (s *Session) Stop(grace time.Duration) {
	s.mu.Lock()
	s.stopped = true
	thread, turn := s.threadID, s.turnID
	s.mu.Unlock()
	if turn != "" {
		ctx, cancel := context.WithTimeout(context.Background(), grace)
		_ = s.rpc.call(ctx, "turn/interrupt", map[string]any{"threadId": thread, "turnId": turn}, nil)
		cancel()
	}
	s.finish("interrupted")
	select {
	case <-s.exited:
		return
	case <-time.After(grace):
	}
	_ = procgroup.Kill(s.cmd.Process.Pid)
	_ = s.cmd.Process.Kill()
	<-s.exited
}
