package mcpserver

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/sentinelhq/sentinel/internal/journal"
	"github.com/sentinelhq/sentinel/internal/textsafe"
	"github.com/sentinelhq/sentinel/policy"
	"github.com/sentinelhq/sentinel/runner/checkpoint"
)

// Options are what the command line adds to a config.
type Options struct {
	// Helper is the sentinel binary the sandbox re-executes (empty: this
	// process's executable; tests point it at a built one).
	Helper string
	// Person hears policy-mode asks; nil is the person through the user
	// service's approval queue (QueuePerson).
	Person Person
	// Warn gets the one-line notices of project files left out (untrusted);
	// nil is standard error.
	Warn io.Writer
	// Systemctl is the program the service tool runs (default systemctl).
	Systemctl string
	// Log is where the [log] lines go instead of its file or standard
	// error (tests).
	Log io.Writer
	// Transport names how clients connect, for the audit ("stdio", "http").
	Transport string
	// Version is reported to clients.
	Version string
	// Checkpoint bounds the checkpoints taken before each writing call
	// (the person's [exec] checkpoint_*; zero fields take the defaults).
	Checkpoint checkpoint.Limits
	// Danger hears each DANGEROUS line told to the person (tell_person.go),
	// for the session's run record in the user service (cmd/sentinel).
	Danger func(line string)

	// files is the file layer (nil: the platform's, see defaultLayer);
	// tests run the file tools on each.
	files fileLayer
	// tellAtOnce tells a call's slow step at once, not after
	// slowtell.After (tests).
	tellAtOnce bool
	// fetch is upload_file's URL fetcher (nil: the guarded default); tests
	// give one that may reach their loopback servers.
	fetch *fetcher
	// issuerClient fetches an external issuer's metadata and keys (nil:
	// the default); tests give one that trusts their loopback TLS issuer.
	issuerClient *http.Client
}

// Server is one `sentinel mcp` server: its config, its sandbox, its gate
// and its audit journal. What comes from the config file (the config, the
// sandbox runner, the policy gate, the state guard) is one generation of
// it; a reload (reload.go) makes the next, and every tool call runs on the
// generation current when it started, whole.
type Server struct {
	*shared
	cfg   *Config
	run   *runner
	gate  *policyGate
	state *stateGuard
}

// shared is what every generation of a server has in common: the
// transport, the journal, the log and the MCP server its sessions hold.
type shared struct {
	opts      Options
	runID     string
	audit     *audit
	auditPath string
	files     fileLayer
	mcp       *mcp.Server
	grantOnce sync.Once        // the OAuth grant gate, added once (http_oauth.go)
	clock     func() time.Time // the OAuth server's clock; nil is time.Now
	fetch     *fetcher
	log       *slog.Logger
	logFile   io.Closer
	gens      generations
	points    *callPoints   // checkpoints before writing calls (checkpoint.go), in the current rw paths
	teller    *personTeller // run-later lines told to the person, not only the client (tell_person.go)
	made      *heldMade     // what Sentinel made in the rw paths to hold it read-only (callwrote.go)
	asking    chan struct{} // the asks waiting for the person (gate_policy.go)

	// httpIdle and httpMaxSessions bound HTTP sessions (httpsessions.go);
	// zero takes HTTPSessionIdle and MaxHTTPSessions (tests set less).
	httpIdle        time.Duration
	httpMaxSessions int
}

// New prepares a server for cfg and opens its audit journal.
func New(cfg *Config, opts Options) (*Server, error) {
	if opts.Systemctl == "" {
		opts.Systemctl = "systemctl"
	}
	sh := &shared{opts: opts, fetch: opts.fetch, runID: newRunID(), made: &heldMade{}, asking: make(chan struct{}, maxAsksWaiting)}
	sh.teller = newPersonTeller(opts.Warn, func() *audit { return sh.audit })
	sh.teller.also = opts.Danger
	s, err := sh.generation(cfg)
	if err != nil {
		return nil, err
	}
	if s.log, s.logFile, err = openLog(cfg.Log, opts.Log); err != nil {
		return nil, err
	}
	s.auditPath = cfg.Audit
	if s.auditPath == "" {
		p, err := defaultAuditPath(s.runID)
		if err != nil {
			return nil, err
		}
		s.auditPath = p
	}
	if abs, err := filepath.Abs(s.auditPath); err == nil {
		s.auditPath = abs
	}
	if s.files = opts.files; s.files == nil {
		s.files = defaultLayer()
	}
	s.state = newStateGuard(cfg.File, s.auditPath)
	a, err := openAudit(s.auditPath, s.runID)
	if err != nil {
		return nil, err
	}
	s.audit = a
	// The audit (and its lock) exist now: known by what they are too.
	s.state = newStateGuard(cfg.File, s.auditPath)
	s.run.hidden = s.state.hidden()
	if err := s.journalServe(false); err != nil {
		a.close()
		return nil, err
	}
	s.gens.start(s)
	s.mcp = mcp.NewServer(&mcp.Implementation{Name: "sentinel", Version: opts.Version}, &mcp.ServerOptions{
		Instructions: "Sentinel gives you an allowlisted shell (exec) and path-gated file tools. Call help first, then capabilities. A refusal says its class, the rule and the tool to use instead.",
	})
	warn := opts.Warn
	if warn == nil {
		warn = os.Stderr
	}
	s.mcp.AddReceivingMiddleware(sh.auditEveryCall) // audit_refused.go
	s.points = newCallPoints(s.runID, "sentinel mcp "+cfg.File, opts.Checkpoint, rwRoots(cfg), func(line string) { fmt.Fprintln(warn, line) })
	s.points.made = sh.made                       // what Sentinel makes in the rw paths is not a call's (callwrote.go)
	s.points.unseen = unseenByCalls(cfg, s.state) // never named to a call (callwrote.go)
	s.addTools()
	return s, nil
}

// rwRoots are cfg's rw paths, where writing calls take points.
func rwRoots(cfg *Config) []string {
	var roots []string
	for _, p := range cfg.Paths {
		if p.Access == AccessReadWrite {
			roots = append(roots, p.real)
		}
	}
	return roots
}

// generation is a server's config-made part for cfg: its runner and its
// policy gate (the state guard is the caller's, once the audit is known).
func (sh *shared) generation(cfg *Config) (*Server, error) {
	s := &Server{shared: sh, cfg: cfg}
	s.run = &runner{cfg: cfg, helper: sh.opts.Helper, tell: sh.teller.tell}
	s.run.git.held = sh.made
	// Both modes decide through the policy chain (gate_project.go); in
	// allowlist mode the allowlist then stands for the person's answer.
	person := sh.opts.Person
	if person == nil {
		person = QueuePerson{Run: sh.runID, Project: s.defaultCwd()}
	}
	g, warnings, err := newPolicyGate(person, s.defaultCwd())
	if err != nil {
		return nil, err
	}
	g.asking = sh.asking
	s.gate = g
	warn := sh.opts.Warn
	if warn == nil {
		warn = os.Stderr
	}
	for _, w := range warnings {
		fmt.Fprintln(warn, w)
	}
	return s, nil
}

// journalServe records the config this generation serves.
func (s *Server) journalServe(reload bool) error {
	var paths []string
	for _, p := range s.cfg.Paths {
		paths = append(paths, p.real+" ("+p.Access+")")
	}
	what := "serving"
	if reload {
		what = "reloaded"
	}
	if _, err := s.audit.j.Append(journal.System, KindServe, "sentinel mcp "+what+" "+s.cfg.File+" over "+s.opts.Transport+" ("+s.cfg.ExecMode+")",
		Serve{Config: s.cfg.File, ExecMode: s.cfg.ExecMode, Transport: s.opts.Transport, Paths: paths, Reload: reload}); err != nil {
		return fmt.Errorf("audit journal %s: %w", s.auditPath, err)
	}
	return nil
}

// MCP is the SDK server, for a transport to run.
func (s *Server) MCP() *mcp.Server { return s.mcp }

// RunID is this server's run id: its asks in the approval queue, its
// checkpoint record and its audit journal carry it.
func (s *Server) RunID() string { return s.runID }

// Project is the project its asks name (the server's workspace).
func (s *Server) Project() string { return s.defaultCwd() }

// AuditPath is where this server journals.
func (s *Server) AuditPath() string { return s.auditPath }

// Close stops the sandboxes and closes the journal.
func (s *Server) Close() {
	s.gens.closeAll()
	s.teller.end()
	s.audit.close()
	s.logFile.Close()
}

// outcome is what a tool handler reports for the audit and the client.
type outcome struct {
	text   string
	rule   string
	exit   *int
	bytes  int
	backup string
	swept  []string // what the git-dir sweep after the command said (gitdirs.go)
}

// handle wraps a tool's handler: the op switch, the audit line, and the
// refusal as a tool error the model reads.
// h runs on the generation current when the call starts (reload.go).
func handle[In any](root *Server, op string, h func(*Server, context.Context, In) (outcome, error)) mcp.ToolHandlerFor[In, any] {
	return func(ctx context.Context, req *mcp.CallToolRequest, in In) (*mcp.CallToolResult, any, error) {
		s, done := root.gens.enter()
		defer done()
		start := time.Now()
		var out outcome
		var err error
		var pt *callPoint
		var wrote mcp.Content // what the call changed: its own block (callwrote.go)
		if aerr := s.audit.failed(); aerr != nil {
			// Refused before it acts: nothing it did would be recorded.
			return nil, nil, fmt.Errorf("the audit journal failed, so this server acts on nothing more (restart it once there is room): %w", aerr)
		}
		if s.cfg.disabled(op) {
			err = &Refusal{Class: ClassOpDisabled, Rule: "disabled_ops", Reason: "the " + op + " tool is disabled in this server's config", Use: "see capabilities for the tools that are on"}
		} else if err = s.refuseInLivePlace(op, req); err != nil {
			// A live in-place run's place (liveplace.go): no point, no act.
		} else {
			ctx = s.withTeller(ctx, op, req)
			ctx, pt = s.withPoint(ctx, op, req)
			out, err = h(s, ctx, in)
			pt.finish(err)
			out.text += s.tellFlags(op, req, pt) // callflags.go
			wrote = s.tellWrote(callWhat(op, req), pt)
		}
		c := Call{Tool: op, Decision: DecisionAllow, Rule: out.rule, ExitCode: out.exit, Bytes: out.bytes, Backup: out.backup, GitSweep: out.swept, DurationMS: time.Since(start).Milliseconds(), Point: pt.number()}
		if req != nil && req.Params != nil {
			c.Args, c.ArgsSummary = summarize(req.Params.Arguments)
		}
		var r *Refusal
		switch {
		case errors.As(err, &r):
			c.Decision, c.Class, c.Rule, c.Reason = DecisionDeny, r.Class, r.Rule, clip(r.Reason)
		case err != nil:
			c.Decision, c.Reason = DecisionError, clip(err.Error())
		}
		summary := op + " " + c.Decision
		if c.Class != "" {
			summary += " [" + string(c.Class) + "]"
		}
		if c.ExitCode != nil {
			summary += fmt.Sprintf(" (exit %d)", *c.ExitCode)
		}
		shown := string(c.Args)
		if c.ArgsSummary != nil {
			shown = fmt.Sprintf("(%d bytes, sha256 %s) %s", c.ArgsSummary.Size, c.ArgsSummary.SHA256, c.ArgsSummary.Head)
		}
		s.logCall(c)
		markAudited(ctx) // audit_refused.go
		if aerr := s.audit.call(textsafe.Line(summary+" "+argSummary(shown)), c); aerr != nil {
			// No audit, no action reported as done: the client hears it,
			// and the person, whom a hostile client never tells.
			if s.teller != nil {
				fmt.Fprintln(s.teller.warn, "sentinel mcp: the audit journal failed ("+aerr.Error()+"): this server acts on nothing more; restart it once there is room")
			}
			return nil, nil, fmt.Errorf("the audit journal failed, so this server stops answering: %w", aerr)
		}
		res := &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: out.text}}}
		if err != nil {
			res = &mcp.CallToolResult{IsError: true, Content: []mcp.Content{&mcp.TextContent{Text: err.Error()}}}
		}
		if wrote != nil {
			res.Content = append(res.Content, wrote)
		}
		return res, nil, nil
	}
}

func argSummary(s string) string {
	if len(s) > 200 {
		s = s[:200]
		for len(s) > 0 && !utf8.ValidString(s) {
			s = s[:len(s)-1]
		}
		s += "…"
	}
	return s
}

func (s *Server) addTools() {
	tool := func(name, desc string) *mcp.Tool { return &mcp.Tool{Name: name, Description: desc} }
	mcp.AddTool(s.mcp, tool("exec", "Run one shell line inside Sentinel's sandbox. Allowed only when every command is covered ("+s.cfg.ExecMode+" mode); see help topic=exec."), handle(s, "exec", (*Server).execTool))
	mcp.AddTool(s.mcp, tool("read", "Read a file under a configured path."), handle(s, "read", func(s *Server, _ context.Context, a readArgs) (outcome, error) {
		t, n, err := s.read(a.Path, a.Offset, a.MaxBytes)
		return outcome{text: t, bytes: n, rule: "paths"}, err
	}))
	mcp.AddTool(s.mcp, tool("list", "List a directory under a configured path."), handle(s, "list", func(s *Server, _ context.Context, a pathArgs) (outcome, error) {
		t, n, err := s.list(a.Path)
		return outcome{text: t, bytes: n, rule: "paths"}, err
	}))
	mcp.AddTool(s.mcp, tool("search", "Find lines containing a text (or regex) in files under a configured path."), handle(s, "search", func(s *Server, _ context.Context, a searchArgs) (outcome, error) {
		t, n, err := s.search(a.Path, a.Pattern, a.Regex, a.Glob)
		return outcome{text: t, bytes: n, rule: "paths"}, err
	}))
	mcp.AddTool(s.mcp, tool("edit", "Write a file under an rw path: the whole content, or old_string -> new_string. Atomic, with a backup named in the result and validation (json, yaml, toml, go, sh; python, nginx and systemd units by their own checkers in the sandbox) that rolls back on failure."), handle(s, "edit", func(s *Server, ctx context.Context, a editArgs) (outcome, error) {
		e, err := s.edit(ctx, a)
		if err != nil {
			return outcome{}, err
		}
		t := fmt.Sprintf("wrote %s (%d bytes)", e.Abs, e.Bytes)
		if e.Check != "" {
			t += "; valid " + e.Check
		}
		if e.Backup != "" {
			t += "; backup of the previous content: " + e.Backup
		} else {
			t += "; new file, no backup"
		}
		return outcome{text: t, bytes: e.Bytes, backup: e.Backup, rule: "paths"}, nil
	}))
	mcp.AddTool(s.mcp, tool("move", "Move or rename a file or directory within one rw path."), handle(s, "move", func(s *Server, _ context.Context, a twoPathArgs) (outcome, error) {
		t, backup, err := s.move(a.From, a.To, a.Overwrite)
		return outcome{text: t, backup: backup, rule: "paths"}, err
	}))
	mcp.AddTool(s.mcp, tool("copy", "Copy a file (readable) to a path under an rw path."), handle(s, "copy", func(s *Server, _ context.Context, a twoPathArgs) (outcome, error) {
		t, n, backup, err := s.copyFile(a.From, a.To, a.Overwrite)
		return outcome{text: t, bytes: n, backup: backup, rule: "paths"}, err
	}))
	mcp.AddTool(s.mcp, tool("delete", "Delete a file, a symlink (not its target) or, with recursive, a directory under an rw path."), handle(s, "delete", func(s *Server, _ context.Context, a deleteArgs) (outcome, error) {
		t, backup, err := s.delete(a.Path, a.Recursive)
		return outcome{text: t, backup: backup, rule: "paths"}, err
	}))
	mcp.AddTool(s.mcp, tool("chmod", "Set the permission bits of a file or directory under an rw path."), handle(s, "chmod", func(s *Server, _ context.Context, a chmodArgs) (outcome, error) {
		t, err := s.chmod(a.Path, a.Mode)
		return outcome{text: t, rule: "paths"}, err
	}))
	mcp.AddTool(s.mcp, tool("chown", "Set the owner and/or group (name or number) of a file or directory under an rw path."), handle(s, "chown", func(s *Server, _ context.Context, a chownArgs) (outcome, error) {
		t, err := s.chown(a)
		return outcome{text: t, rule: "paths"}, err
	}))
	mcp.AddTool(s.mcp, tool("upload_file", "Put a file into upload_base: base64 content, or a URL on a public host fetched through an SSRF guard (size-capped)."), handle(s, "upload_file", (*Server).upload))
	mcp.AddTool(s.mcp, tool("service", "Run an allowed action on a configured service (systemctl ACTION UNIT)."), handle(s, "service", (*Server).serviceTool))
	mcp.AddTool(s.mcp, tool("playbook", "Run a diagnostic playbook (its commands, in order) or get a procedure's steps."), handle(s, "playbook", (*Server).playbookTool))
	mcp.AddTool(s.mcp, tool("help", "How this server works: an index first, then one topic at a time."), handle(s, "help", func(s *Server, _ context.Context, a helpArgs) (outcome, error) {
		if a.Path != "" {
			t, err := s.helpPath(a.Path)
			return outcome{text: t, rule: "paths"}, err
		}
		t, err := s.help(a.Topic)
		return outcome{text: t}, err
	}))
	mcp.AddTool(s.mcp, tool("capabilities", "What this server allows: a summary first, then one section, path or playbook."), handle(s, "capabilities", func(s *Server, _ context.Context, a capsArgs) (outcome, error) {
		t, err := s.capabilities(a)
		return outcome{text: t}, err
	}))
}

// execTool gates and runs one line.
func (s *Server) execTool(ctx context.Context, a execArgs) (outcome, error) {
	if execUnavailable != "" {
		return outcome{}, &Refusal{Class: ClassOpDisabled, Rule: "platform", Reason: execUnavailable, Use: "use the file tools (read, list, search, edit); run commands on Linux or macOS"}
	}
	cwd := a.Cwd
	if cwd == "" {
		cwd = s.defaultCwd()
	}
	pl, err := s.cfg.Resolve(cwd, AccessRead)
	if err != nil {
		return outcome{}, err
	}
	held, err := s.reach(pl, AccessRead) // never Sentinel's state, by what it is
	if err != nil {
		return outcome{}, err
	}
	held.close()
	if fi, err := os.Stat(pl.Abs); err != nil || !fi.IsDir() {
		return outcome{}, &Refusal{Class: ClassBadInput, Reason: "cwd " + pl.Abs + " is not a directory", Use: "give an existing directory under " + s.cfg.rootList()}
	}
	rule, err := s.gateExec(ctx, a.Command, pl.Abs) // exec_gate.go
	if err != nil {
		return outcome{}, err
	}
	pointOf(ctx).take("exec: " + a.Command)
	if err := s.audit.aboutToRun("exec", pl.Abs, a.Command); err != nil {
		return outcome{rule: rule}, err
	}
	r, err := s.run.run(ctx, pl.Abs, a.Command)
	said := r.Swept
	if err != nil {
		return outcome{rule: rule, swept: said}, err
	}
	exit := r.Exit
	return outcome{text: formatRan(r, s.cfg.Limits) + sweepNote(said), rule: rule, exit: &exit, bytes: len(r.Output), swept: said}, nil
}

func formatRan(r ran, l Limits) string {
	var b strings.Builder
	b.Write(r.Output)
	if len(r.Output) > 0 && r.Output[len(r.Output)-1] != '\n' {
		b.WriteByte('\n')
	}
	if r.Truncated {
		fmt.Fprintf(&b, "[output cut at %d bytes (max_output_bytes)]\n", l.MaxOutputBytes)
	}
	if r.TimedOut {
		fmt.Fprintf(&b, "[killed after %s (exec_timeout)]\n", l.ExecTimeoutDuration())
	}
	fmt.Fprintf(&b, "[exit %d]", r.Exit)
	return b.String()
}

func (s *Server) defaultCwd() string {
	for _, p := range s.cfg.Paths {
		if p.Access == AccessReadWrite {
			return p.real
		}
	}
	return s.cfg.Paths[0].real
}

func (s *Server) policyContext(cwd string) policy.Context {
	home, _ := os.UserHomeDir()
	ctx := policy.Context{Workspace: s.defaultCwd(), Cwd: cwd, Home: home, Sandboxed: true, InPlace: true, AllowHosts: s.cfg.AllowHosts}
	for _, p := range s.cfg.Paths {
		if p.Access == AccessReadWrite && p.real != ctx.Workspace {
			ctx.Writable = append(ctx.Writable, p.real)
		}
	}
	return ctx
}
