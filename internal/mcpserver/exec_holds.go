package mcpserver

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"

	"github.com/sentinelhq/sentinel/internal/filestamp"
	"github.com/sentinelhq/sentinel/internal/gitdir"
	"github.com/sentinelhq/sentinel/sandbox"
)

// A git dir or pointer that appeared while no command ran (none started or
// ran during the look) was made by the person, not by a command: it is
// remembered as the person's, held read-only, and named in the answer,
// not quarantined by the sweep after the next command. One found while a
// command runs is held, and the sweep judges it after that command.

// What git would run lies where the person's repositories say now, not
// where they said when the sandbox started: a repository the person makes
// while the server runs (or one a sweep could not move out), an include
// or core.hooksPath the person adds to a config, a program named in one,
// sends git to files a command could otherwise write — the file tools
// refuse them (gitincludes_files.go), and commands must not write them
// either. So before each command the rw paths are looked at again (the
// walk for git dirs, and the config of each found: holdsNow) and, when
// something is to be held that the sandbox does not hold, the sandbox is
// replaced by one that holds it too: under swap, so that no command runs
// on the old one while it goes (each command holds swap for reading while
// it runs). What was held stays held. A look that fails runs nothing:
// what git would run is then unknown.

// holdsNow is what git would be sent to in roots now: every git dir and
// pointer under them other than each root's own .git (whose parts protect
// holds), the pointers of an own .git, and what the config of each
// repository found names (targetsOf: included files, hooks directories,
// programs named as paths), made where missing; and the links on the way
// to an included file.
func (g *gitGuard) holdsNow(ctx context.Context, roots []string) (held []string, links map[string]string, fresh map[string][]string, err error) {
	a, err := g.look(ctx, roots) // exec_holds_cache.go
	if err != nil {
		return nil, nil, nil, err
	}
	var out []string
	fresh = map[string][]string{}
	for _, root := range roots {
		own, sc := g.ownOf(root), a.scans[root]
		for _, p := range slices.Concat(sc.Dirs, sc.Pointers, sc.Unlisted) {
			if within(p, root) && p != root {
				out = append(out, p)
			}
		}
		fresh[root] = g.unknown(root, slices.Concat(sc.Dirs, sc.Pointers))
		if own != "" {
			for _, n := range ownGitFiles {
				if f := own + string(os.PathSeparator) + n; present(f) {
					out = append(out, f)
				}
			}
		}
	}
	return append(out, a.targets...), a.links, fresh, nil
}

// unknown are those of found under root the start did not have.
func (g *gitGuard) unknown(root string, found []string) []string {
	g.mu.Lock()
	defer g.mu.Unlock()
	base := g.base[root]
	var out []string
	for _, p := range found {
		if !within(p, root) || p == root || base == nil {
			continue
		}
		if id, err := gitdir.IDOf(p); err == nil && (base.Has(id) || g.made[id]) || g.madePaths[p] {
			continue // the person's, or one a command made that a sweep could not move
		}
		out = append(out, p)
	}
	return out
}

// commandMade remembers p (identity id) as made by a command. The caller
// holds g.mu.
func (g *gitGuard) commandMade(p string, id filestamp.ID) {
	if g.made == nil {
		g.made, g.madePaths = map[filestamp.ID]bool{}, map[string]bool{}
	}
	if id != (filestamp.ID{}) {
		g.made[id] = true
		return
	}
	g.madePaths[p] = true
}

// adopt remembers fresh (root → git dirs and pointers) as the person's:
// the sweep leaves them, and commands' git reads their objects.
func (g *gitGuard) adopt(fresh map[string][]string) []string {
	g.mu.Lock()
	defer g.mu.Unlock()
	var said []string
	for root, ps := range fresh {
		base := g.base[root]
		for _, p := range ps {
			base.Add(p)
			g.dirs[root] = append(g.dirs[root], p)
			g.addAlternate(filepath.Join(gitdir.Common(p), "objects"))
			said = append(said, "held read-only: "+p+", a git dir or pointer that appeared since the last command (not made by one); git runs its hooks and config on your next command there")
		}
	}
	slices.Sort(said)
	return said
}

// current is the sandbox to run the next command in, holding what holdsNow
// finds, and the release to call when the command has ended.
// said is what to add to the command's answer (a repository adopted).
func (r *runner) current(ctx context.Context) (sbx *sandbox.Sandbox, release func(), said []string, err error) {
	if _, err := r.prepare(); err != nil {
		return nil, nil, nil, err
	}
	if r.tmp == "" {
		if said, err = r.refreshHolds(ctx); err != nil {
			return nil, nil, nil, err
		}
		own, err := r.unshareOutside() // exec_unshare.go
		said = append(said, own...)
		if err != nil {
			return nil, nil, said, err
		}
	}
	r.swap.RLock()
	r.running.Add(1)
	r.started.Add(1)
	return r.sbx, func() { r.running.Add(-1); r.swap.RUnlock() }, said, nil
}

// refreshHolds replaces the sandbox when holdsNow names a path it does not
// hold, and adopts the git dirs that appeared while no command ran.
func (r *runner) refreshHolds(ctx context.Context) ([]string, error) {
	started := r.started.Load()
	quiet := r.running.Load() == 0
	found, links, fresh, err := r.git.holdsNow(context.WithoutCancel(ctx), r.roots)
	if err != nil {
		return nil, fmt.Errorf("not run: could not look again for what git config sends git to (%w)", err)
	}
	var said []string
	if quiet && r.running.Load() == 0 && r.started.Load() == started {
		said = r.git.adopt(fresh)
	}
	r.git.addConfigLinks(links)
	return said, r.swapFor(found)
}

// swapFor replaces the sandbox by one that holds found too, when it does
// not hold each already.
func (r *runner) swapFor(found []string) error {
	r.heldMu.Lock() // one replacement at a time; commands run on meanwhile
	defer r.heldMu.Unlock()
	if r.stopped {
		return fmt.Errorf("not run: this server's sandbox has stopped")
	}
	var add []string
	for _, p := range found {
		if !r.held[p] && !slices.Contains(add, p) {
			add = append(add, p)
		}
	}
	if len(add) == 0 {
		return nil
	}
	others, err := heldLinks(add, r.roots, r.hidden) // runlater_links.go
	if err != nil {
		return fmt.Errorf("not run: %w", err)
	}
	p := r.profile
	p.Protected = slices.Concat(p.Protected, add, others)
	sbx, err := sandbox.Prepare(p, r.opts)
	if err != nil {
		return fmt.Errorf("not run: the sandbox could not start again to hold %s read-only: %w", add[0], err)
	}
	r.swap.Lock() // waits for the commands running on the old one
	old := r.sbx
	r.sbx = sbx
	r.swap.Unlock()
	old.Close()
	r.profile = p
	for _, h := range append(add, others...) {
		r.held[h] = true
	}
	return nil
}

// addConfigLinks watches links too (sweepConfigLinks), as they are now.
func (g *gitGuard) addConfigLinks(links map[string]string) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.configLinks == nil {
		g.configLinks = map[string]string{}
	}
	for l, t := range links {
		if _, ok := g.configLinks[l]; !ok {
			g.configLinks[l] = t
		}
	}
}
