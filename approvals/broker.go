package approvals

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"os"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/sentinelhq/sentinel/internal/journal"
	"github.com/sentinelhq/sentinel/internal/peercred"
	"github.com/sentinelhq/sentinel/policy"
)

// DefaultTimeout is how long a request waits for a decider by default.
const DefaultTimeout = 10 * time.Minute

// BrokerConfig configures a run's broker.
type BrokerConfig struct {
	SocketPath string // the unix socket, in the run directory
	RunID      string
	Policy     *policy.Engine
	Context    policy.Context
	Templates  *TemplateSet // nil: no remembered approvals (run scope is still kept)
	Decider    Decider      // the chain's last link (a run: Ask); nil: everything policy asks about is denied ("no one to ask")
	Timeout    time.Duration
	Journal    *journal.Journal // nil: nothing is journaled
	// Sees, when set, says whether the coder's sandbox shows an absolute
	// path (for writing when write): a file request for a path it does not
	// show is denied, never offered (see reach.go).
	Sees func(path string, write bool) bool
	// Inside, when set, tells the rest of what the coder's sandbox is: the
	// environment its processes get and whether it has any network. With
	// Sees it says whether a command's approval could take effect: an
	// install into a place the sandbox keeps read-only, a daemon it cannot
	// reach or a fetch with no network is denied with why, never offered
	// (reach_needs.go).
	Inside func() (Inside, bool)
	// Registries, when set, reads the package registries the project and
	// the person configured: a package install's card then names the hosts
	// it will fetch from and may allow them with it (fetchgrant.go).
	Registries func() policy.Registries
	// HookOnlyGate says the coder's agent runs a call whose hook fails, so
	// the broker watches for calls that ran without an allow (bypass.go);
	// OnBypass, when set, is told of one: the run stops the coder.
	HookOnlyGate bool
	OnBypass     func(Bypass)
	// Peer, when set, must accept a connecting process (its pid, as
	// SO_PEERCRED gives it) on top of being this user: a run passes
	// InProcessTree(its own pid), so another run's coder is refused.
	Peer func(pid int) error
	// BeforeAllow, when set, is called with every request the broker
	// allows, before the answer goes back (the tool has not run yet): an
	// in-place run checkpoints the place there. It must not block long;
	// a panic in it is recovered and the answer stands.
	BeforeAllow func(Request)
}

// Broker answers a run's requests: over its unix socket (hook commands,
// adapters in other processes) and in process (Decide).
type Broker struct {
	cfg      BrokerConfig
	ln       net.Listener
	idPrefix string
	seq      atomic.Int64
	pending  pendingLimit // requests in flight, capped at MaxPending

	ctx    context.Context // cancelled by Close
	cancel context.CancelFunc
	wg     sync.WaitGroup

	mu       sync.Mutex
	conns    map[net.Conn]struct{}
	started  bool
	watching bool // the broker started the template watch and stops it
	history  []Request

	notes coderNotes // for the coder's next tool result (NoteForCoder)
	calls callLedger // how hook-gated calls were decided (bypass.go)
}

// NewBroker listens on cfg.SocketPath (mode 0600). Call Start or Serve to
// begin answering; Close removes the socket.
func NewBroker(cfg BrokerConfig) (*Broker, error) {
	if cfg.SocketPath == "" {
		return nil, errors.New("approvals: the broker needs a socket path")
	}
	if len(cfg.SocketPath) >= len(syscall.RawSockaddrUnix{}.Path) {
		return nil, fmt.Errorf("approvals: socket path %s is too long for a unix socket (%d bytes, max %d); use a shorter run directory",
			cfg.SocketPath, len(cfg.SocketPath), len(syscall.RawSockaddrUnix{}.Path)-1)
	}
	if cfg.Timeout <= 0 {
		cfg.Timeout = DefaultTimeout
	}
	if cfg.Policy == nil {
		eng, err := policy.Load()
		if err != nil {
			return nil, fmt.Errorf("approvals: load the built-in policy: %w", err)
		}
		cfg.Policy = eng
	}
	if cfg.Templates == nil {
		cfg.Templates = NewTemplateSet()
	}
	if err := removeStaleSocket(cfg.SocketPath); err != nil {
		return nil, err
	}
	// The run directory is private (0700), so the moment between listen and
	// chmod exposes nothing; umask is process-wide and not ours to change.
	ln, err := net.Listen("unix", cfg.SocketPath)
	if err != nil {
		return nil, fmt.Errorf("approvals: listen on %s: %w", cfg.SocketPath, err)
	}
	if err := os.Chmod(cfg.SocketPath, 0o600); err != nil {
		ln.Close()
		return nil, fmt.Errorf("approvals: restrict %s: %w", cfg.SocketPath, err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	prefix := cfg.RunID
	if prefix == "" {
		prefix = "req"
	}
	return &Broker{cfg: cfg, ln: ln, idPrefix: prefix, ctx: ctx, cancel: cancel, conns: map[net.Conn]struct{}{},
		calls: callLedger{on: cfg.HookOnlyGate}}, nil
}

// removeStaleSocket removes a leftover socket nobody listens on; anything
// else at the path is an error.
func removeStaleSocket(path string) error {
	fi, err := os.Lstat(path)
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("approvals: %s: %w", path, err)
	}
	if fi.Mode()&os.ModeSocket == 0 {
		return fmt.Errorf("approvals: %s exists and is not a socket; remove it or pick another run directory", path)
	}
	if c, err := net.DialTimeout("unix", path, time.Second); err == nil {
		c.Close()
		return fmt.Errorf("approvals: another broker is listening on %s", path)
	}
	return os.Remove(path)
}

// SocketPath returns where the broker listens.
func (b *Broker) SocketPath() string { return b.cfg.SocketPath }

// Timeout returns how long a request waits for a decider.
func (b *Broker) Timeout() time.Duration { return b.cfg.Timeout }

// Templates returns the broker's template set.
func (b *Broker) Templates() *TemplateSet { return b.cfg.Templates }

// Start begins accepting connections in the background.
func (b *Broker) Start() {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.started {
		return
	}
	b.started = true
	// Reload template files when the person edits them during the run.
	err := b.cfg.Templates.Watch(func(sc Scope, err error) {
		switch {
		case err != nil && sc != "":
			b.journal(journal.System, KindTemplateError, fmt.Sprintf("%s templates not reloaded (the previous ones stay): %v", sc, err), nil)
		case err != nil:
			b.journal(journal.System, KindTemplateError, "watching template files: "+err.Error(), nil)
		default:
			b.journal(journal.System, KindTemplatesReloaded, fmt.Sprintf("%s templates reloaded from %s", sc, b.cfg.Templates.File(sc)), nil)
		}
	})
	b.watching = err == nil
	b.wg.Add(1)
	go b.acceptLoop()
}

// Serve answers until ctx is done, then closes the broker.
func (b *Broker) Serve(ctx context.Context) error {
	b.Start()
	select {
	case <-ctx.Done():
	case <-b.ctx.Done():
	}
	b.Close()
	return nil
}

// Close stops accepting, denies every request still waiting, closes the
// connections and removes the socket. It is safe to call more than once.
func (b *Broker) Close() error {
	b.cancel()
	err := b.ln.Close()
	b.mu.Lock()
	for c := range b.conns {
		c.Close()
	}
	b.mu.Unlock()
	b.wg.Wait()
	b.endBurst()
	b.mu.Lock()
	watching := b.watching
	b.watching = false
	b.mu.Unlock()
	if watching {
		b.cfg.Templates.Close()
	} else {
		b.cfg.Templates.Flush()
	}
	if rerr := os.Remove(b.cfg.SocketPath); rerr != nil && !errors.Is(rerr, os.ErrNotExist) {
		return rerr
	}
	if errors.Is(err, net.ErrClosed) {
		return nil
	}
	return err
}

func (b *Broker) closing() bool { return b.ctx.Err() != nil }

// History returns the requests that reached a decider, oldest first (for
// the person's "remember" preview).
func (b *Broker) History() []Request {
	b.mu.Lock()
	defer b.mu.Unlock()
	return append([]Request(nil), b.history...)
}

func (b *Broker) remember(req Request) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.history = append(b.history, req)
	if len(b.history) > 1000 {
		b.history = b.history[len(b.history)-1000:]
	}
}

func (b *Broker) acceptLoop() {
	defer b.wg.Done()
	for {
		c, err := b.ln.Accept()
		if err != nil {
			if b.closing() || errors.Is(err, net.ErrClosed) {
				return
			}
			b.journal(journal.System, KindBrokerError, "accept: "+err.Error(), nil)
			time.Sleep(10 * time.Millisecond)
			continue
		}
		if err := b.checkPeer(c); err != nil {
			b.journal(journal.System, KindBrokerError, "refused a connection: "+err.Error(), nil)
			c.Close()
			continue
		}
		b.mu.Lock()
		b.conns[c] = struct{}{}
		b.mu.Unlock()
		b.wg.Add(1)
		go b.serveConn(c)
	}
}

// checkPeer refuses connections from another user and, with cfg.Peer,
// from a process it does not accept.
func (b *Broker) checkPeer(c net.Conn) error {
	cred, err := peercred.Of(c)
	if err != nil {
		return err
	}
	if cred.UID != os.Getuid() {
		return fmt.Errorf("peer uid %d is not this user (%d)", cred.UID, os.Getuid())
	}
	if b.cfg.Peer != nil {
		return b.cfg.Peer(cred.PID)
	}
	return nil
}

// serveConn reads messages; each request is decided in its own goroutine so
// many may be in flight on one connection. When the client goes away, its
// waiting requests are withdrawn (and denied).
func (b *Broker) serveConn(c net.Conn) {
	defer b.wg.Done()
	ctx, cancel := context.WithCancel(b.ctx)
	var inflight sync.WaitGroup
	defer func() {
		cancel()
		inflight.Wait()
		c.Close()
		b.mu.Lock()
		delete(b.conns, c)
		b.mu.Unlock()
	}()
	var wmu sync.Mutex
	send := func(m message) {
		m.V = ProtocolVersion
		line, err := json.Marshal(m)
		if err != nil {
			return
		}
		wmu.Lock()
		defer wmu.Unlock()
		_, _ = c.Write(append(line, '\n')) // a client gone away: its requests are withdrawn when the read ends
	}
	sc := bufio.NewScanner(c)
	sc.Buffer(make([]byte, 4<<10), maxMessage) // grows to a long line; most are short
	for sc.Scan() {
		var m message
		if err := json.Unmarshal(sc.Bytes(), &m); err != nil {
			d := b.refuse(Request{}, "malformed message: "+err.Error())
			send(message{Type: msgDecision, Decision: &d})
			continue
		}
		switch {
		case m.V != ProtocolVersion:
			req := Request{}
			if m.Request != nil {
				req = *m.Request
			}
			d := b.refuse(req, fmt.Sprintf("protocol version %d is not supported (this broker speaks %d)", m.V, ProtocolVersion))
			send(message{Type: msgDecision, ID: m.ID, Decision: &d})
		case m.Type == msgRequest && m.Request != nil:
			if !b.admit() { // a flood: denied here, no goroutine, no card
				d := b.overflow(*m.Request)
				send(message{Type: msgDecision, ID: m.ID, Decision: &d})
				continue
			}
			b.calls.asked(*m.Request)
			inflight.Add(1)
			go func(id string, req Request) {
				defer inflight.Done()
				defer b.release()
				d := b.decide(ctx, req)
				b.calls.decided(req, d)
				send(message{Type: msgDecision, ID: id, Decision: &d})
			}(m.ID, *m.Request)
		case m.Type == msgReport && m.Report != nil:
			if err := b.record(*m.Report); err != nil {
				send(message{Type: msgError, ID: m.ID, Error: err.Error()})
			} else {
				b.checkBypass(*m.Report)
				ack := message{Type: msgAck, ID: m.ID}
				if m.Report.Kind == "tool-result" {
					ack.Note = b.notes.take()
				}
				send(ack)
			}
		default:
			// Anything else — including any attempt to add a template —
			// is refused: templates are written only by the person.
			d := b.refuse(Request{}, fmt.Sprintf("unknown message type %q (want request or report)", m.Type))
			send(message{Type: msgDecision, ID: m.ID, Decision: &d})
		}
	}
	// A coder that went away with our answer unread resets the connection:
	// that is no request, and no "malformed message" denial in the counts.
	if err := sc.Err(); err != nil && !b.closing() && !errors.Is(err, net.ErrClosed) && !errors.Is(err, syscall.ECONNRESET) {
		d := b.refuse(Request{}, "malformed message: "+err.Error())
		send(message{Type: msgDecision, Decision: &d})
	}
}

// refuse journals a request that could not be read and its deny.
func (b *Broker) refuse(req Request, reason string) Decision {
	req = fromArgv(req)
	req.ID = fmt.Sprintf("%s-%d", b.idPrefix, b.seq.Add(1))
	b.journalRequest(req, nil)
	d := denyBy("error", reason)
	d.RequestID = req.ID
	b.journalDecision(req, d)
	return d
}
