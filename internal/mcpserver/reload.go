package mcpserver

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"time"

	"github.com/fsnotify/fsnotify"
)

// A reload reads the config file again while the server runs (SIGHUP, or
// the file changing) and makes it the generation every call that starts
// after it runs on: disabled_ops, paths, the allowlist, exec mode, limits,
// services and playbooks. Sessions stay connected; a call already running
// finishes on the generation it started with, and that generation's
// sandbox is stopped when its last call ends. A config that fails to load
// keeps the previous one and says so in one line.
//
// What the listener or the journal was set up with stays until a restart:
// token, token_env, [oauth], [tls], [log] and audit. A reload that changes
// them says so and keeps the running values.

// reloadQuiet is how long the config file must stay unchanged after a
// change before it is read: an editor's save is several events, and a
// half-written file must not become the config.
const reloadQuiet = 250 * time.Millisecond

// generations is the current generation of a server and how many calls
// hold each generation's runner.
type generations struct {
	mu       sync.Mutex
	cur      *Server
	held     map[*runner]int
	reloadMu sync.Mutex // one reload at a time
	// reloaded hears every reload's outcome (tests).
	reloaded func(error)
}

func (g *generations) start(s *Server) {
	g.cur = s
	g.held = map[*runner]int{}
}

// enter is the generation a call runs on, held until done is called.
func (g *generations) enter() (s *Server, done func()) {
	g.mu.Lock()
	s = g.cur
	g.held[s.run]++
	g.mu.Unlock()
	return s, func() {
		g.mu.Lock()
		g.held[s.run]--
		last := g.held[s.run] == 0
		if last {
			delete(g.held, s.run)
		}
		retired := last && g.cur.run != s.run
		g.mu.Unlock()
		if retired {
			s.run.close()
		}
	}
}

// current is the generation a call starting now would run on.
func (g *generations) current() *Server {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.cur
}

// swap makes next current; the previous generation's runner stops now
// when no call holds it, else when its last call ends.
func (g *generations) swap(next *Server) {
	g.mu.Lock()
	prev := g.cur
	g.cur = next
	idle := g.held[prev.run] == 0
	g.mu.Unlock()
	if idle {
		prev.run.close()
	}
}

func (g *generations) closeAll() {
	g.mu.Lock()
	runs := []*runner{g.cur.run}
	for r := range g.held {
		runs = append(runs, r)
	}
	g.mu.Unlock()
	for _, r := range runs {
		r.close()
	}
}

// Reload reads the config file again and makes it current. On an error
// the previous config stays and the error is told (one line) and
// returned.
func (s *Server) Reload() (err error) {
	g := &s.gens
	g.reloadMu.Lock()
	defer g.reloadMu.Unlock()
	defer func() {
		if g.reloaded != nil {
			g.reloaded(err)
		}
	}()
	prev := g.current()
	cfg, err := LoadConfig(prev.cfg.File)
	if err != nil {
		s.notice("config reload failed, still serving the previous config: %s", oneLine(err))
		return err
	}
	if kept := keepUntilRestart(prev.cfg, cfg); len(kept) > 0 {
		s.notice("config %s reloaded, but %s change only at a restart: the running values stay", cfg.File, strings.Join(kept, ", "))
	}
	next, err := s.shared.generation(cfg)
	if err != nil {
		err = fmt.Errorf("%s: %w", cfg.File, err)
		s.notice("config reload failed, still serving the previous config: %s", oneLine(err))
		return err
	}
	// The file may be a new one (an editor's save renames over it): know
	// it by what it is now.
	next.state = newStateGuard(cfg.File, s.auditPath)
	next.run.hidden = next.state.hidden()
	if err := next.journalServe(true); err != nil {
		s.notice("config reload failed, still serving the previous config: %s", oneLine(err))
		return err
	}
	s.points.setRoots(rwRoots(cfg)) // points before calls in the new rw paths too
	g.swap(next)
	s.notice("config %s reloaded: calls from now on run under it (exec_mode %s, %d paths)", cfg.File, cfg.ExecMode, len(cfg.Paths))
	return nil
}

// notice is one line for the person running the server (standard error,
// or Options.Warn), whatever [log] says: a reload that did not happen
// must not go unsaid.
func (s *Server) notice(format string, a ...any) {
	w := s.opts.Warn
	if w == nil {
		w = os.Stderr
	}
	fmt.Fprintf(w, "sentinel mcp: "+format+"\n", a...)
}

// keepUntilRestart copies into next what only a restart changes, and
// names what differed.
func keepUntilRestart(prev, next *Config) []string {
	var kept []string
	keep := func(name string, p, n any, set func()) {
		if !reflect.DeepEqual(p, n) {
			kept = append(kept, name)
		}
		set()
	}
	keep("token", prev.Token, next.Token, func() { next.Token = prev.Token })
	keep("token_env", prev.TokenEnv, next.TokenEnv, func() { next.TokenEnv = prev.TokenEnv })
	keep("[oauth]", prev.OAuth, next.OAuth, func() { next.OAuth = prev.OAuth })
	keep("[tls]", prev.TLS, next.TLS, func() { next.TLS = prev.TLS })
	keep("[log]", prev.Log, next.Log, func() { next.Log = prev.Log })
	keep("audit", prev.Audit, next.Audit, func() { next.Audit = prev.Audit })
	return kept
}

func oneLine(err error) string { return strings.Join(strings.Fields(err.Error()), " ") }

// WatchConfig reloads the config on every signal from hup (SIGHUP) and
// whenever its file changes (once it has stayed unchanged for a moment),
// until ctx ends. A watch that cannot start is logged; SIGHUP still works.
func (s *Server) WatchConfig(ctx context.Context, hup <-chan os.Signal) {
	var changed <-chan fsnotify.Event
	var werrs <-chan error
	file := s.cfg.File
	if abs, err := filepath.Abs(file); err == nil {
		file = abs
	}
	w, err := fsnotify.NewWatcher()
	if err == nil {
		// The directory, not the file: an editor's save replaces the file.
		if err = w.Add(filepath.Dir(file)); err != nil {
			w.Close()
		}
	}
	if err != nil {
		s.notice("the watch on %s did not start (%s): send SIGHUP to reload it", file, oneLine(err))
	} else {
		defer w.Close()
		changed, werrs = w.Events, w.Errors
	}
	quiet := time.NewTimer(time.Hour)
	quiet.Stop()
	defer quiet.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-hup:
			s.Reload()
		case ev, ok := <-changed:
			if !ok {
				changed = nil
				continue
			}
			if filepath.Clean(ev.Name) == file && !ev.Has(fsnotify.Chmod) {
				quiet.Reset(reloadQuiet)
			}
		case err, ok := <-werrs:
			if !ok {
				werrs = nil
				continue
			}
			s.notice("the watch on %s: %s", file, oneLine(err))
		case <-quiet.C:
			s.Reload()
		}
	}
}
