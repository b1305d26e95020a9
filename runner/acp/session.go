package acp

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/exec"
	"strings"
	"sync"
	"time"

	sdk "github.com/coder/acp-go-sdk"
	"github.com/sentinelhq/sentinel/approvals"
	"github.com/sentinelhq/sentinel/internal/agentutil"
	"github.com/sentinelhq/sentinel/internal/coderstream"
	"github.com/sentinelhq/sentinel/internal/journal"
	"github.com/sentinelhq/sentinel/internal/procgroup"
)

// Config configures a Session.
type Config struct {
	Task      string // the first prompt
	Workspace string // the session's cwd (absolute); files are served from here only
	// Ask is the broker; required. It must deny on any failure.
	Ask func(context.Context, approvals.Request) approvals.Decision
	// OnLine receives every journal-ready line.
	OnLine func(Line)
	// Stderr receives the agent's stderr (its logs); may be nil.
	Stderr io.Writer
	// StartTimeout bounds initialize and session/new as a hang: how long
	// the agent may stay silent (nothing on stdout or stderr) before
	// answering (0: 2 minutes). StartCap bounds them however much it
	// writes (0: 10 minutes).
	StartTimeout, StartCap time.Duration
	// Agent names the agent's program in messages (default: cmd's).
	Agent string
	// NoReadDelegation leaves file reads to the agent (see Adapter.ReadDelegation).
	NoReadDelegation bool
}

// Session is one ACP agent process driven by Sentinel: one session, one
// prompt turn after another until a turn ends with nothing more to say.
type Session struct {
	cfg    Config
	cmd    *exec.Cmd
	stdin  io.WriteCloser
	conn   *sdk.ClientSideConnection
	client *client
	id     sdk.SessionId

	mu       sync.Mutex
	queue    []string // steering waiting for the next prompt
	inTurn   bool
	finished bool
	stop     chan struct{}
	status   sdk.StopReason // the last turn's stop reason
	// denialRounds counts turns in a row followed up only for denials.
	denialRounds int

	exited   chan struct{}
	exitCode int
	ended    bool // Sentinel ended the agent after its session finished
	stopped  bool // Sentinel stopped the session (Stop)
	// promptErr is the agent's error answering session/prompt.
	promptErr string
	tail      *agentutil.TailBuffer // the end of the agent's stderr
	live      *liveness             // when the agent last wrote (the handshake's hang bound)
}

// Start starts cmd (the sandboxed agent, not yet started) with pipes on its
// stdin and stdout, initializes the connection, opens a session in
// cfg.Workspace and sends the task. The turns then run in the background.
func Start(ctx context.Context, cmd *exec.Cmd, cfg Config) (*Session, error) {
	if cfg.Ask == nil {
		return nil, errors.New("acp: no approval broker to ask (Config.Ask is nil)")
	}
	if cfg.Workspace == "" {
		cfg.Workspace = cmd.Dir
	}
	if cfg.Agent == "" {
		cfg.Agent = cmd.Path
	}
	if cfg.StartTimeout <= 0 {
		cfg.StartTimeout = 2 * time.Minute
	}
	if cfg.StartCap <= 0 {
		cfg.StartCap = defaultStartCap
	}
	emit := cfg.OnLine
	if emit == nil {
		emit = func(Line) {}
	}
	root, err := os.OpenRoot(cfg.Workspace)
	if err != nil {
		return nil, fmt.Errorf("acp: open the workspace: %w", err)
	}
	s := &Session{cfg: cfg, cmd: cmd, exited: make(chan struct{}), stop: make(chan struct{}), live: newLiveness()}
	s.client = &client{ws: cfg.Workspace, root: root, ask: cfg.Ask, emit: emit, lines: newLineWriter(emit), granted: map[string]int{}}
	if s.stdin, err = cmd.StdinPipe(); err != nil {
		return nil, err
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	tail := &agentutil.TailBuffer{Max: 16 << 10}
	s.tail = tail
	cmd.Stderr = s.live.writer(tail)
	if cfg.Stderr != nil {
		cmd.Stderr = s.live.writer(io.MultiWriter(tail, cfg.Stderr))
	}
	procgroup.Session(cmd)
	if err := cmd.Start(); err != nil {
		root.Close()
		return nil, fmt.Errorf("start %s: %w", cmd.Path, err)
	}
	// The SDK starts its receive loop inside NewClientSideConnection and
	// only then lets us set its logger; the loop logs (e.g. "connection
	// closed" when the agent exits at once). It reads through a gate that
	// opens after SetLogger, so the logger is set before the loop can use it.
	gate := &gatedReader{r: s.live.reader(stdout), open: make(chan struct{})}
	s.conn = sdk.NewClientSideConnection(s.client, s.stdin, gate)
	s.conn.SetLogger(slog.New(slog.NewTextHandler(io.Discard, nil))) // failures reach the journal instead
	close(gate.open)
	go func() {
		err := cmd.Wait()
		s.exitCode = agentutil.ExitStatus(err)
		root.Close()
		close(s.exited)
	}()
	if err := s.begin(ctx); err != nil {
		s.kill()
		if t := strings.TrimSpace(tail.String()); t != "" {
			err = fmt.Errorf("%w (the agent said: %s)", err, agentutil.LastLines(t, 5))
		}
		return nil, err
	}
	go s.turns()
	return s, nil
}

// begin is the handshake: initialize, then session/new.
func (s *Session) begin(ctx context.Context) error {
	ctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	go s.live.watch(ctx, cancel, s.cfg.StartTimeout, s.cfg.StartCap)
	go func() {
		select {
		case <-s.exited:
			cancel(nil)
		case <-ctx.Done():
		}
	}()
	init, err := s.conn.Initialize(ctx, sdk.InitializeRequest{
		ProtocolVersion: sdk.ProtocolVersionNumber,
		ClientCapabilities: sdk.ClientCapabilities{
			Fs: sdk.FileSystemCapabilities{ReadTextFile: !s.cfg.NoReadDelegation, WriteTextFile: true},
		},
		ClientInfo: &sdk.Implementation{Name: "sentinel", Version: "1"},
	})
	if err != nil {
		select {
		case <-s.exited:
			return fmt.Errorf("acp: %s exited without answering initialize (is it an ACP agent? e.g. gemini --acp, opencode acp)", s.cfg.Agent)
		case <-time.After(time.Second): // its exit may trail the closed pipe
		}
		return fmt.Errorf("acp initialize: %v (is this an ACP agent? e.g. gemini --acp, opencode acp)", hangCause(ctx, err))
	}
	if init.ProtocolVersion != sdk.ProtocolVersionNumber {
		return fmt.Errorf("acp: the agent speaks protocol version %d; Sentinel speaks %d", init.ProtocolVersion, sdk.ProtocolVersionNumber)
	}
	sess, err := s.conn.NewSession(ctx, sdk.NewSessionRequest{Cwd: s.cfg.Workspace, McpServers: []sdk.McpServer{}})
	if err != nil {
		return fmt.Errorf("acp session/new: %w (if the agent needs a login, sign in to it outside Sentinel first)", hangCause(ctx, err))
	}
	s.id = sess.SessionId
	if err := s.askingMode(ctx, sess.Modes); err != nil {
		return err
	}
	s.client.emit(Line{Lane: journal.Coder, Kind: coderstream.Init, Text: fmt.Sprintf("ACP session %s with %s", sess.SessionId, agentName(init)),
		Data: map[string]any{"session": sess.SessionId, "agent": init.AgentInfo}})
	return nil
}

// askingMode puts a session that starts in another mode (the person's
// settings may choose an auto-approving one, like Gemini's yolo or
// autoEdit) into the agent's "default" mode, where it asks before acting.
// An agent without modes, or without one called default, is left alone.
func (s *Session) askingMode(ctx context.Context, modes *sdk.SessionModeState) error {
	if modes == nil || modes.CurrentModeId == "default" {
		return nil
	}
	for _, m := range modes.AvailableModes {
		if m.Id != "default" {
			continue
		}
		if _, err := s.conn.SetSessionMode(ctx, sdk.SetSessionModeRequest{SessionId: s.id, ModeId: m.Id}); err != nil {
			return fmt.Errorf("acp: the session started in mode %q and could not be set to default (where it asks first): %w", modes.CurrentModeId, err)
		}
		s.client.emit(Line{Lane: journal.System, Kind: coderstream.Mode, Text: fmt.Sprintf("the agent started in mode %q; set to default, where it asks before acting", modes.CurrentModeId)})
		return nil
	}
	return nil
}

func agentName(r sdk.InitializeResponse) string {
	if r.AgentInfo == nil {
		return "an unnamed agent"
	}
	return strings.TrimSpace(r.AgentInfo.Name + " " + r.AgentInfo.Version)
}

// turns sends the task, then each steering message or denial follow-up,
// one prompt turn at a time, and ends the agent when a turn ends with
// nothing left to send.
func (s *Session) turns() {
	defer s.end()
	text := s.cfg.Task
	for {
		s.mu.Lock()
		if s.finished {
			s.mu.Unlock()
			return
		}
		s.inTurn = true
		s.mu.Unlock()
		res, err := s.conn.Prompt(context.Background(), sdk.PromptRequest{SessionId: s.id, Prompt: []sdk.ContentBlock{sdk.TextBlock(text)}})
		s.client.lines.flush()
		s.mu.Lock()
		s.inTurn = false
		s.status = res.StopReason
		s.mu.Unlock()
		if err != nil {
			s.mu.Lock()
			s.promptErr = err.Error()
			s.mu.Unlock()
			s.client.emit(Line{Lane: journal.System, Kind: coderstream.Error, Text: "acp session/prompt failed: " + err.Error()})
			return
		}
		s.client.emit(Line{Lane: journal.Coder, Kind: coderstream.TurnEnd, Text: "turn ended: " + string(res.StopReason), Data: res})
		next, ok := s.next(res.StopReason)
		if !ok {
			return
		}
		text = next
	}
}

// maxDenialRounds bounds the follow-ups that only tell the agent why it
// was denied: an agent that keeps ending its turns on denied requests is
// not prompted forever.
const maxDenialRounds = 5

// next is the following prompt: queued steering and untold denials. A turn
// that ended any way but end_turn or a cancel of ours ends the session.
func (s *Session) next(reason sdk.StopReason) (string, bool) {
	s.mu.Lock()
	queued := s.queue
	s.queue = nil
	s.mu.Unlock()
	if reason != sdk.StopReasonEndTurn && reason != sdk.StopReasonCancelled {
		return "", false
	}
	var parts []string
	parts = append(parts, queued...)
	d := s.client.takeDenials()
	if len(queued) > 0 {
		s.denialRounds = 0
	} else if len(d) > 0 {
		s.denialRounds++
		if s.denialRounds > maxDenialRounds {
			s.client.emit(Line{Lane: journal.System, Kind: coderstream.Warning, Text: fmt.Sprintf(
				"the agent ended %d turns in a row with only denied requests; not prompting it again", maxDenialRounds)})
			return "", false
		}
	}
	if len(d) > 0 {
		parts = append(parts, "Sentinel, which approves your actions, denied:\n- "+strings.Join(d, "\n- ")+
			"\nDo not try to get around these; continue the task another way, or finish and say what is left.")
	}
	if len(parts) == 0 {
		return "", false
	}
	return strings.Join(parts, "\n\n"), true
}

// Steer sends text to the agent: the running turn is cancelled and the
// text becomes the next prompt (ACP has no input into a running turn).
func (s *Session) Steer(text string) error {
	s.mu.Lock()
	if s.finished {
		s.mu.Unlock()
		return errors.New("acp: the session has ended; nothing to steer")
	}
	s.queue = append(s.queue, text)
	inTurn := s.inTurn
	s.mu.Unlock()
	if inTurn {
		s.client.cancelTurn()
		return s.conn.Cancel(context.Background(), sdk.CancelNotification{SessionId: s.id})
	}
	return nil
}

// Status is the last turn's stop reason.
func (s *Session) Status() sdk.StopReason {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.status
}

// end closes the agent's input and, after a grace period, ends its
// process group: an ACP agent may keep running after its input closes.
func (s *Session) end() {
	s.mu.Lock()
	if s.finished && s.ended {
		s.mu.Unlock()
		return
	}
	s.finished, s.ended = true, true
	s.mu.Unlock()
	_ = s.stdin.Close()
	select {
	case <-s.exited:
	case <-time.After(2 * time.Second):
		s.kill()
	}
}

func (s *Session) kill() {
	// ESRCH / "process already finished": it is gone, which is the point.
	_ = procgroup.Kill(s.cmd.Process.Pid)
	_ = s.cmd.Process.Kill()
	<-s.exited
}

// Wait waits for the agent to end. A session that ended its last turn with
// end_turn is 0 even though Sentinel had to end the process; a turn that
// ended otherwise (refusal, max tokens, an error) is 1; an agent that died
// on its own gives its own status.
func (s *Session) Wait() int {
	<-s.exited
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.ended {
		if s.status == sdk.StopReasonEndTurn {
			return 0
		}
		return 1
	}
	if s.exitCode == 0 {
		return 1 // it quit without finishing its turn
	}
	return s.exitCode
}

// Failure is the agent's own error when its turn failed ("" when its last
// turn ended normally, or Sentinel stopped it): its answer to
// session/prompt was an error, its turn ended another way than end_turn
// (refusal, max tokens), or it exited before finishing its turn (with the
// end of its stderr).
func (s *Session) Failure() string {
	<-s.exited
	s.mu.Lock()
	defer s.mu.Unlock()
	switch {
	case s.promptErr != "":
		return "session/prompt failed: " + s.promptErr
	case s.stopped:
		return ""
	case s.ended:
		if s.status == sdk.StopReasonEndTurn || s.status == sdk.StopReasonCancelled {
			return ""
		}
		return "its turn ended with stop reason " + string(s.status)
	}
	why := fmt.Sprintf("%s exited (status %d) before finishing its turn", s.cfg.Agent, s.exitCode)
	if t := strings.TrimSpace(s.tail.String()); t != "" {
		why += ": " + agentutil.LastLines(t, 3)
	}
	return why
}

// Stop cancels the running turn and ends the agent after grace.
func (s *Session) Stop(grace time.Duration) {
	s.mu.Lock()
	inTurn := s.inTurn
	s.stopped = true
	s.finished = true
	s.mu.Unlock()
	if inTurn {
		s.client.cancelTurn()
		ctx, cancel := context.WithTimeout(context.Background(), grace)
		_ = s.conn.Cancel(ctx, sdk.CancelNotification{SessionId: s.id}) // best effort: the agent is killed next if it ignores it
		cancel()
	}
	_ = s.stdin.Close()
	select {
	case <-s.exited:
	case <-time.After(grace):
		s.kill()
	}
}

// gatedReader holds every Read until open is closed.
type gatedReader struct {
	r    io.Reader
	open chan struct{}
}

func (g *gatedReader) Read(p []byte) (int, error) {
	<-g.open
	return g.r.Read(p)
}
