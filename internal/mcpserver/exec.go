package mcpserver

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"slices"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/sentinelhq/sentinel/internal/procgroup"
	"github.com/sentinelhq/sentinel/internal/servicewire"
	"github.com/sentinelhq/sentinel/sandbox"
)

// runner runs command lines inside Sentinel's sandbox: the rw paths
// writable, the r paths readable, credentials hidden, the network as the
// config says. It is prepared on first use and shared by every call.
type runner struct {
	cfg    *Config
	helper string   // the sentinel binary re-executed inside (empty: this one)
	hidden []string // Sentinel's own state, hidden from commands
	git    gitGuard // the rw paths' git dirs (gitdirs.go)
	once   sync.Once
	sbx    *sandbox.Sandbox
	tmp    string // a private workspace when no path is rw
	// later: the rw roots and the files that run code later held
	// read-only in them (newLaterHold); one made since, and a program of
	// an installed environment made or changed, is named after the
	// command (laterHold.made).
	later *laterHold
	// tell, when set, tells the person (not only the client) what a
	// command left that runs code later (tell_person.go).
	tell   func(what string, lines []string)
	err    error
	closed sync.Once
	// What the sandbox was made from, for one that holds more
	// (exec_holds.go): the rw roots, the profile and options, what it
	// holds read-only; swap is held for reading by each running command
	// and for writing while the sandbox is replaced; heldMu keeps
	// profile and held, and one replacement at a time.
	heldMu  sync.Mutex
	stopped bool // closed: no sandbox is made again
	roots   []string
	profile sandbox.Profile
	opts    sandbox.Options
	held    map[string]bool
	swap    sync.RWMutex
	// running counts the commands running, started those ever started:
	// a look during which neither moved saw only the person's changes.
	running, started atomic.Int64
}

func (r *runner) prepare() (*sandbox.Sandbox, error) {
	r.once.Do(func() {
		var ws string
		var writable, readable []string
		for _, p := range r.cfg.Paths {
			switch {
			case p.Access == AccessReadWrite && ws == "":
				ws = p.real
			case p.Access == AccessReadWrite:
				writable = append(writable, p.real)
			default:
				readable = append(readable, p.real)
			}
		}
		if ws == "" {
			d, err := os.MkdirTemp("", "sentinel-mcp-ws-")
			if err != nil {
				r.err = err
				return
			}
			r.tmp, ws = d, d
		}
		home, _ := os.UserHomeDir()
		p := sandbox.DefaultProfile(ws, home)
		if path, dropped := absolutePATH(os.Getenv("PATH")); dropped { // onpath.go
			p.Env = append(p.Env, "PATH="+path) // after the inherited PATH: the last one counts
		}
		p.Writable = append(p.Writable, writable...)
		for _, w := range writable {
			p.Protected = append(p.Protected, protectedIn(w)...) // as the workspace's own are
		}
		p.Protected = append(p.Protected, pathDirsIn(r.cfg.guards.onPath, append([]string{ws}, writable...))...) // onpath.go
		if r.tmp == "" {
			for _, w := range append([]string{ws}, writable...) {
				prot, err := r.git.protect(w)
				if err != nil {
					r.err = fmt.Errorf("the sandbox could not start, so nothing runs: %w", err)
					return
				}
				p.Protected = append(p.Protected, prot...)
			}
			targets, err := r.git.configTargets(context.Background(), append([]string{ws}, writable...)) // gitincludes.go
			if err != nil {
				r.err = fmt.Errorf("the sandbox could not start, so nothing runs: %w", err)
				return
			}
			p.Protected = append(p.Protected, targets...)
			later, held, err := newLaterHold(append([]string{ws}, writable...), r.hidden)
			if err != nil {
				r.err = fmt.Errorf("the sandbox could not start, so nothing runs: %w", err)
				return
			}
			mounts := heldMounts(held, append([]string{ws}, writable...), r.hidden)
			links, err := heldLinks(append(slices.Clone(p.Protected), mounts...), append([]string{ws}, writable...), r.hidden) // runlater_links.go
			if err != nil {
				r.err = fmt.Errorf("the sandbox could not start, so nothing runs: %w", err)
				return
			}
			for _, l := range links {
				tellPerson(l + " is another name (a hard link) of a file that runs code later; it is held read-only too")
			}
			p.Protected = append(append(p.Protected, mounts...), links...)
			r.later = later
			scratch, env, err := r.git.openScratch(readable)
			if err != nil {
				r.err = fmt.Errorf("the sandbox could not start, so nothing runs: %w", err)
				return
			}
			if scratch != "" {
				p.Writable = append(p.Writable, scratch)
				p.Env = append(p.Env, env...)
			}
		}
		p.Readable = append(p.Readable, readable...)
		// The user service answers any process of this user (its queue's
		// cards included): hidden as a run hides it, whatever path covers it.
		p.Hidden = append(append(p.Hidden, r.hidden...), servicewire.DirPath())
		if r.cfg.Network == NetProxy {
			p.Net = sandbox.NetProxy
			p.AllowHosts = append(p.AllowHosts, r.cfg.AllowHosts...)
		} else {
			p.Net = sandbox.NetNone
		}
		asker := func(context.Context, string, int) (bool, string) {
			return false, "not in allow_hosts of the sentinel mcp config"
		}
		r.roots, r.profile, r.held = append([]string{ws}, writable...), p, map[string]bool{}
		for _, h := range p.Protected {
			r.held[h] = true
		}
		r.opts = sandbox.Options{Mode: sandbox.Mode(r.cfg.Sandbox), Asker: asker, Helper: r.helper}
		r.sbx, r.err = sandbox.Prepare(p, r.opts)
		if r.err != nil {
			r.err = fmt.Errorf("the sandbox could not start, so nothing runs: %w", r.err)
		}
	})
	return r.sbx, r.err
}

// close stops the sandbox (once: a reload's retired runner may be closed
// by its last call and by the server's Close).
func (r *runner) close() {
	r.closed.Do(func() {
		r.heldMu.Lock() // no replacement under way: r.sbx is the last
		r.stopped = true
		if r.sbx != nil {
			r.sbx.Close()
		}
		r.heldMu.Unlock()
		for _, line := range r.git.moveIn(context.Background(), true) {
			tellPerson(line)
		}
		if r.tmp != "" {
			os.RemoveAll(r.tmp)
		}
	})
}

// ran is one command's outcome.
type ran struct {
	Exit      int
	Output    []byte
	Truncated bool
	TimedOut  bool
	// Swept is what the sweep after the command said: git dirs and
	// pointers it made, moved out (gitdirs.go).
	Swept []string
}

// run runs line with bash in dir, inside the sandbox, then sweeps the rw
// paths for git dirs it made.
func (r *runner) run(ctx context.Context, dir, line string) (ran, error) {
	done := tellerOf(ctx).slow("starting the sandbox (the first command walks the rw paths for git dirs to hold read-only)")
	sbx, release, adopted, err := r.current(ctx) // exec_holds.go
	done()
	if err != nil {
		return ran{Swept: adopted}, err
	}
	released := false
	defer func() {
		if !released {
			release()
		}
	}()
	if why := r.git.halted(); why != "" {
		return ran{}, fmt.Errorf("not run: an earlier command deleted git objects (%s)", why)
	}
	ctx, cancel := context.WithTimeout(ctx, r.cfg.Limits.ExecTimeoutDuration())
	defer cancel()
	cmd, err := sbx.Command(ctx, dir, "bash", "--noprofile", "--norc", "-c", line)
	if err != nil {
		return ran{}, err
	}
	out := &capped{max: r.cfg.Limits.MaxOutputBytes}
	cmd.Stdin = nil
	cmd.Stdout, cmd.Stderr = out, out
	procgroup.Own(cmd) // the sandbox's contract allows setting only the process group
	cmd.Cancel = func() error { return procgroup.Kill(cmd.Process.Pid) }
	cmd.WaitDelay = 2 * time.Second
	objects, later, refs, rest, envs := r.git.snapObjects(), r.git.snapLater(), r.git.snapRefs(), r.git.snapRest(), r.later.envsNow()
	indexes, stash := r.git.snapIndexes(), r.git.snapStash(ctx, refs)
	stopLive := r.git.watchLive() // quarantines a git dir as it appears (gitlive.go)
	began := time.Now()
	err = cmd.Run()
	live := stopLive()
	release()
	released = true
	// Whatever ran may have made a git dir: every command is followed by
	// the sweep, whoever asked for it (exec, a playbook, a validator).
	swept := tellerOf(ctx).slow("looking through the rw paths for git dirs the command made")
	res := ran{Output: out.buf.Bytes(), Truncated: out.over, Swept: append(append(append(append(append(adopted, live...), r.git.sweep()...), r.git.sweepConfigLinks()...), r.git.checkObjects(context.WithoutCancel(ctx), objects)...), r.git.checkLater(context.WithoutCancel(ctx), later)...)}
	res.Swept = append(res.Swept, r.git.checkRefs(refs)...)
	res.Swept = append(res.Swept, r.git.checkRest(rest)...)
	res.Swept = append(res.Swept, r.git.checkIndexes(indexes)...)
	res.Swept = append(res.Swept, r.git.moveIn(context.WithoutCancel(ctx), false)...)
	danger := append(append(r.git.refsCarry(context.WithoutCancel(ctx), refs, stash), r.later.made(envs)...), r.newLibraries(began)...)
	res.Swept = append(res.Swept, danger...)
	if r.tell != nil {
		r.tell("sentinel mcp exec in "+dir+": "+argSummary(line), danger)
	}
	r.cfg.guards.includes.invalidate() // a moved repository's includes name other files now (gitincludes_files.go)
	swept()
	if ctx.Err() == context.DeadlineExceeded {
		res.TimedOut = true
	}
	var ee *exec.ExitError
	switch {
	case err == nil:
	case errors.As(err, &ee):
		res.Exit = ee.ExitCode()
		if ws, ok := ee.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
			res.Exit = 128 + int(ws.Signal())
		}
	case res.TimedOut:
		res.Exit = 124
	default:
		return res, fmt.Errorf("run: %w", err)
	}
	return res, nil
}

// capped keeps the first max bytes written to it.
type capped struct {
	mu   sync.Mutex
	buf  bytes.Buffer
	max  int
	over bool
}

func (c *capped) Write(p []byte) (int, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	room := c.max - c.buf.Len()
	if room <= 0 {
		c.over = c.over || len(p) > 0
		return len(p), nil
	}
	if len(p) > room {
		c.buf.Write(p[:room])
		c.over = true
		return len(p), nil
	}
	c.buf.Write(p)
	return len(p), nil
}
