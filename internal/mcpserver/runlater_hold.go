package mcpserver

import (
	"fmt"
	"path/filepath"
	"slices"
	"sync"

	"github.com/sentinelhq/sentinel/internal/runlater"
	"github.com/sentinelhq/sentinel/internal/textsafe"
	"github.com/sentinelhq/sentinel/policy"
)

// laterHold is what newLaterHold found when the sandbox started, and the
// files that run code later made since, each named once. It keeps a
// runlater.Tree of each rw root, so that looking again after a command
// reads only the directories the command changed (the rest cost a
// stat each), and the installed-environment directories the trees pass
// (node_modules/.bin, a virtual environment's bin), which are not held
// (installs rewrite them) but stamped around each command (envStamps).
type laterHold struct {
	roots, hidden []string
	trees         []*runlater.Tree
	mu            sync.Mutex
	seen          map[string]string // path: its linkState when named
	envs          []string          // the environment directories at the last look
}

// newLaterHold looks through the rw roots once and is the hold, with
// the files and directories under them that run code later
// (runlater.Find's answer): the sandbox holds each read-only for every
// command, in every exec mode, so what no reading of a line can see
// (`python3 -c`, `sh -c "$X"`, a program's own options, anything in
// unrestricted mode) cannot change them; each directory between a root and
// one of them is bound onto itself, so none can be renamed away. Sentinel's
// hidden state is not walked. A symbolic link under such a name is in the
// list as itself; heldMounts gives what the sandbox binds.
func newLaterHold(roots, hidden []string) (*laterHold, []string, error) {
	h := &laterHold{roots: roots, hidden: hidden, seen: map[string]string{}}
	skip := func(p string) bool { return slices.ContainsFunc(hidden, func(x string) bool { return within(p, x) }) }
	for _, root := range roots {
		h.trees = append(h.trees, runlater.NewTree(root, skip))
	}
	held, err := h.look()
	if err != nil {
		return nil, nil, fmt.Errorf("hold the files that run code later read-only: %w", err)
	}
	for _, p := range held {
		h.seen[p] = linkState(p)
	}
	return h, held, nil
}

// look refreshes every tree: what runs later now, and the environment
// directories (h.envs). The caller holds h.mu or owns h.
func (h *laterHold) look() ([]string, error) {
	var found, envs []string
	for _, t := range h.trees {
		f, e, err := t.Refresh()
		if err != nil {
			return nil, err
		}
		found, envs = append(found, f...), append(envs, e...)
	}
	h.envs = envs
	return found, nil
}

// made names each file that runs code later which a command made since
// the sandbox started (only those that existed then are held read-only),
// and each program of an installed environment it made or changed since
// before (envStamps): the answer and the audit record say so, for the
// person to look at.
func (h *laterHold) made(before envStamps) []string {
	if h == nil {
		return nil
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	found, err := h.look()
	if err != nil {
		return []string{"could not look for files that run code later the command made: " + textsafe.Line(err.Error())}
	}
	var out []string
	for _, p := range found {
		st := linkState(p)
		if was, ok := h.seen[p]; ok && was == st {
			continue
		}
		h.seen[p] = st
		why := "it runs code later on this machine"
		for _, root := range h.roots {
			if rel, err := filepath.Rel(root, p); err == nil && within(p, root) {
				if e, ok := policy.RunsLater(filepath.ToSlash(rel)); ok {
					why = e.Reason
				}
			}
		}
		what := textsafe.Line(p) // names and link text are the client's
		if st != "" {
			what += " (a symbolic " + textsafe.Line(st) + ")"
		}
		out = append(out, "the command made "+what+", which runs code later ("+why+"); it is not held read-only until the server restarts: the person must look at it before using this folder")
		if state, err := markStateWrite(p); state {
			out = append(out, stateWriteNote(p, err))
		}
	}
	return append(out, envChanges(before, stampEnvs(h.envs))...)
}
