package runner

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"time"

	"github.com/sentinelhq/sentinel/approvals"
	"github.com/sentinelhq/sentinel/internal/helperbin"
	"github.com/sentinelhq/sentinel/internal/journal"
	"github.com/sentinelhq/sentinel/internal/servicewire"
	"github.com/sentinelhq/sentinel/internal/userstate"
	"github.com/sentinelhq/sentinel/policy"
	"github.com/sentinelhq/sentinel/runner/demo"
	"github.com/sentinelhq/sentinel/sandbox"
)

// policyFiles are the rule files a run loads on top of the built-in rules:
// policy.RuleFiles, the one list and order (so `sentinel policy check`,
// sentinel mcp and a run name the same rules), with the project's file
// only where placeStateFile lets it, and the line saying a project file
// was left out.
func policyFiles(p *Project) ([]string, string) {
	var warning string
	files := policy.RuleFiles(p.Root, func(string) string {
		var f string
		f, warning = placeStateFile(p, "policy.toml")
		return f
	})
	return files, warning
}

func (r *containment) policyContext() policy.Context {
	home, _ := os.UserHomeDir()
	// With --sandbox off the policy is the only gate: running the
	// project's own scripts and snippets asks instead of being allowed.
	// The hosts the person let through (--allow-host, allow_hosts) are
	// allowed by the policy too: the proxy passes them without asking, so
	// the agent's own fetch tool must not be asked about (or denied) them.
	return policy.Context{Workspace: r.ws.Dir, Cwd: r.ws.Dir, Home: home, Sandboxed: r.opts.Sandbox.Mode != sandbox.ModeOff, InPlace: r.opts.InPlace,
		// In place, deleting uncommitted work asks unless the checkpoint
		// taken before the coder started holds all of the place (nothing
		// left out by its size bounds): then sentinel undo brings it back.
		Checkpointed: r.opts.InPlace && r.ws.CheckpointCovers("."),
		AllowHosts:   slices.Clone(r.opts.Sandbox.AllowHosts),
		// launchCoder sets these to the workspace in the coder's
		// environment: cd "$CLAUDE_PROJECT_DIR" && … is judged in it.
		WorkspaceVars: slices.Clone(workspaceVars)}
}

// workspaceVars are the variables the coder's environment holds the
// workspace in. Claude Code gives CLAUDE_PROJECT_DIR to its hooks and
// MCP servers but not to its Bash tool, which inherits it from the coder's
// environment (anthropics/claude-code#33815); agents' CLAUDE.md files
// nonetheless write cd "$CLAUDE_PROJECT_DIR" && …, so the runner sets it
// and the policy knows its value.
var workspaceVars = []string{"CLAUDE_PROJECT_DIR"}

// workspaceEnv is the coder's environment entries for workspaceVars.
func workspaceEnv(dir string) []string {
	env := make([]string, 0, len(workspaceVars))
	for _, n := range workspaceVars {
		env = append(env, n+"="+dir)
	}
	return env
}

// startBroker loads the policy and the remembered templates and starts the
// run's broker on its unix socket.
func (r *containment) startBroker() error {
	p := r.opts.Project
	files, warning := policyFiles(p)
	eng, err := policy.Load(files...)
	if err != nil {
		return err
	}
	userFile, _ := approvals.UserTemplatesPath()
	projectTemplates, twarning := placeStateFile(p, "templates.toml")
	templates, err := approvals.LoadTemplates(projectTemplates, userFile)
	if err != nil {
		return err
	}
	trustWrites(p, templates)
	for _, w := range []string{warning, twarning} {
		if w != "" {
			r.emit(journal.System, KindNotice, w, nil)
		}
	}
	// The chain's last link: the person and/or the supervisor model (the
	// chain, in approvals, decides which is asked when).
	ask := approvals.Ask{Grace: r.opts.Supervision.AwayGrace, AdviceTimeout: 20 * time.Second}
	if r.opts.Approval.Person != nil {
		ask.Person = r.opts.Approval.Person
	}
	if r.sup != nil {
		ask.Model = r.sup
	}
	if r.opts.Approval.Queue {
		ask.Away = r.queuePerson()
	}
	r.broker, err = approvals.NewBroker(approvals.BrokerConfig{
		SocketPath:   r.socketPath(),
		RunID:        r.id,
		Policy:       eng,
		Context:      r.policyContext(),
		Templates:    templates,
		Decider:      ask,
		Timeout:      r.opts.Approval.Timeout,
		Journal:      r.journal,
		Sees:         r.sandboxSees,
		Inside:       r.sandboxInside,
		Registries:   r.registries,
		HookOnlyGate: hookOnlyGate(r.adapter),
		OnBypass:     r.onBypass,
		// Only this run's own coder (started by this process, in the
		// sandbox or not) may use its broker: not another run's.
		Peer:        approvals.InProcessTree(os.Getpid()),
		BeforeAllow: r.beforeAllowedCall(),
	})
	if err != nil {
		return fmt.Errorf("start the approval broker: %w", err)
	}
	r.broker.Start()
	return nil
}

// PreviewGrant says which of the past requests a remembered grant would
// have approved, asked of the run's own approval chain (its policy with the
// project's and the user's rules, and its context): the remember chooser's
// preview, so it never disagrees with the broker. Pure: no I/O.
func (r *Run) PreviewGrant(spec approvals.GrantSpec, past []approvals.Request) []approvals.Request {
	if r.guard == nil || r.guard.broker == nil {
		return nil
	}
	return r.guard.broker.Preview(spec, past)
}

// profile is what the coder's process tree may do: the sandbox's default
// (workspace writable, private temp, system locations readable, credentials
// hidden, .git hooks and config protected, network only through the proxy)
// plus what this run needs. The real project is not mounted at all — its
// ignored files (.env and the like) stay out of reach — except its object
// store, read-only, which the workspace borrows through alternates, and the
// run directory, read-only, where the broker's socket is.
func (r *containment) profile() sandbox.Profile {
	p := r.opts.Project
	home, _ := os.UserHomeDir()
	prof := sandbox.DefaultProfile(r.ws.Dir, home)
	prof.Overlay = r.ws.Overlay()
	if exe, err := os.Executable(); err == nil {
		prof.Readable = append(prof.Readable, exe) // the demo coder and the hook commands are this binary
	}
	if h, err := helperbin.Path(); err == nil {
		prof.Readable = append(prof.Readable, h) // or sentinel-helper beside it
	}
	prof.ReadOnly = append(prof.ReadOnly, r.dir, filepath.Dir(r.socketPath()))
	if p.GitDir != "" { // in place, a project need not be a repository
		prof.ReadOnly = append(prof.ReadOnly, p.ObjectsDir())
	}
	prof.AllowHosts = append(prof.AllowHosts, r.opts.Sandbox.AllowHosts...)
	prof.Hidden = append(prof.Hidden, r.opts.Sandbox.Hidden...)
	if d, err := userstate.Dir(); err == nil {
		// The record key and the shadow git dirs: never the coder's to read,
		// whatever else a profile makes readable.
		prof.Hidden = append(prof.Hidden, d)
	}
	// The user service's socket: the coder must never post, answer or
	// withdraw in the approval queue, whatever a profile makes readable.
	prof.Hidden = append(prof.Hidden, servicewire.DirPath())
	prof.Readable = append(prof.Readable, r.opts.Sandbox.Readable...)
	prof.DeniedExecutables = append(prof.DeniedExecutables, r.opts.Sandbox.DeniedExecutables...)
	prof.PidsMax = r.opts.Sandbox.PidsMax
	// The person's git identity signs the coder's commits.
	prof.Env = append(prof.Env, sandbox.GitIdentityEnv(p.Root)...)
	if n := r.needs; n != nil {
		prof.Writable = append(prof.Writable, n.Writable...)
		prof.Readable = append(prof.Readable, absPaths(n.Readable)...)
		prof.Protected = append(prof.Protected, n.Protected...)
		prof.Hidden = append(prof.Hidden, n.Hidden...)
		prof.PassEnv = append(prof.PassEnv, n.PassEnv...)
		prof.AllowHosts = append(prof.AllowHosts, n.AllowHosts...)
		if sandbox.PlacesEnforced(r.opts.Sandbox.Mode) {
			for path, src := range n.Places {
				prof.Places = append(prof.Places, sandbox.Place{Path: path, Source: src})
			}
		}
	}
	prof = withLoginPath(prof, r.opts.Sandbox.Mode, r.policyDir())
	// Build caches are the project's own, in the person's cache dir (never
	// the workspace or the project), after the agent's needs (WithCaches).
	// A new project's Go cache starts as a copy of the signed seed
	// (verify_goseed_project.go), not empty.
	SeedProjectGoCache(context.Background(), p.Root)
	if cp, err := prof.WithCaches(p.Root); err == nil {
		prof = cp
	}
	return prof
}

// scriptedSteering plays the demo scenario's stand-in supervisor: once the
// named step has been decided, it sends the scripted steering message to the
// coder through the same channel a person or a supervisor model uses.
func (r *coderStage) scriptedSteering(d *demoAdapter) {
	sc, err := demo.Load(d.scenario)
	if err != nil || len(sc.Steer) == 0 {
		return
	}
	pending := map[string]string{}
	for _, s := range sc.Steer {
		pending[s.After] = s.Text
	}
	events, cancel := r.journal.Subscribe(64, true)
	defer cancel()
	stepOf := map[string]string{} // request id → the scenario step that asked
	for ev := range events {
		if req, ok := approvals.AsRequest(ev); ok {
			stepOf[req.ID] = req.ToolCallID
			continue
		}
		d, ok := approvals.AsDecision(ev)
		if !ok {
			continue
		}
		step := stepOf[d.RequestID]
		text, ok := pending[step]
		if !ok {
			continue
		}
		delete(pending, step)
		r.emit(journal.Supervisor, KindSteer, "→ coder: "+text+" (scripted by the demo scenario)", SteerNote{Text: text, Scripted: true})
		_ = r.tellCoder(text) // a coder that has exited needs no steering; the steer event is journaled
		if len(pending) == 0 {
			return
		}
	}
}

// absPaths makes each relative path absolute against this process's
// working directory, where a relative program the person named (exec --
// ./bin/claude, node node_modules/…/cli.js) was found: an agent's program
// directory comes back as given, and the sandbox refuses a relative one.
func absPaths(paths []string) []string {
	out := make([]string, 0, len(paths))
	for _, p := range paths {
		if a, err := filepath.Abs(p); err == nil && !filepath.IsAbs(p) {
			p = a
		}
		out = append(out, p)
	}
	return out
}
