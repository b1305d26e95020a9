package mcpserver

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"

	"github.com/sentinelhq/sentinel/internal/runlater"
	"github.com/sentinelhq/sentinel/internal/textsafe"
	"github.com/sentinelhq/sentinel/policy"
)

// execRunLater gives exec's writes the file tools' answer for files that
// run code later (runLaterGuard): every file the line writes, as the
// policy's own write judgement finds them (redirection targets, options
// that name an output file such as git log --output=F), is refused when
// runlater.toml calls it the person's, for every program, whatever
// allowed_commands covers (allowlist, strict and policy modes: in
// unrestricted mode any program runs, and only the sandbox can hold a
// file: runLaterHeld, for those that exist). With unknownToo (allowlist
// and strict modes, where the allowlist stands for the person's answer) a
// write whose target cannot be known before the line runs (an expansion,
// a glob) is refused too: it could name such a file.
func (s *Server) execRunLater(line, cwd string, unknownToo bool) error {
	eng := policy.Default()
	if s.gate != nil && s.gate.engine != nil {
		eng = s.gate.engine
	}
	w := eng.ShellWrites(line, s.policyContext(cwd))
	if unknownToo && !w.Unknown && writesUnplaced(eng, line, s.policyContext(cwd)) { // runlater_unplaced.go
		w.Unknown = true
	}
	for _, p := range w.Paths {
		abs, err := Canonical(p)
		if err != nil {
			if !filepath.IsAbs(p) {
				w.Unknown = true // a target it cannot place is one it cannot clear
				continue
			}
			abs = p
		}
		pl, ok := s.cfg.place(abs)
		if !ok {
			continue // outside the configured paths: the sandbox keeps it unwritable
		}
		if err := runLaterGuard(pl); err != nil {
			if r, ok := err.(*Refusal); ok {
				r.Reason = "the command writes " + pl.Abs + ", which" + strings.TrimPrefix(r.Reason, pl.Abs)
				r.Use = "leave that file alone; " + r.Use
			}
			return err
		}
	}
	if unknownToo && w.Unknown {
		return &Refusal{Class: ClassNotAllowed, Rule: "runs later (write target unknown)",
			Reason: fmt.Sprintf("%q writes a file whose name is not known before it runs (an expansion, a pattern, a patch, an archive, a copied tree or a git checkout), which could be one that runs code later", line),
			Use:    "write the target path out in plain words, or use the edit tool"}
	}
	return nil
}

// runLaterHeld are the files and directories under the rw roots that run
// code later (runlater.Find): the sandbox holds each read-only for every
// command, in every exec mode, so what no reading of a line can see
// (`python3 -c`, `sh -c "$X"`, a program's own options, anything in
// unrestricted mode) cannot change them; each directory between a root and
// one of them is bound onto itself, so none can be renamed away. Sentinel's
// hidden state is not walked. A symbolic link under such a name is in the
// list as itself; heldMounts gives what the sandbox binds.
func runLaterHeld(roots, hidden []string) ([]string, error) {
	var out []string
	for _, root := range roots {
		found, err := runlater.Find(root, func(p string) bool {
			return slices.ContainsFunc(hidden, func(h string) bool { return within(p, h) })
		})
		if err != nil {
			return nil, fmt.Errorf("hold the files that run code later read-only: %w", err)
		}
		out = append(out, found...)
	}
	return out, nil
}

// heldMounts is what the sandbox binds read-only for the paths
// runLaterHeld found: each itself, or for a symbolic link the file it
// names when that is inside an rw root (one outside them is not writable
// in the sandbox anyway, and a hidden one stays hidden). A link itself
// cannot be held; laterHold.made names it when it is made or re-pointed.
func heldMounts(found, roots, hidden []string) []string {
	var out []string
	for _, p := range found {
		t, ok := runlater.Target(p)
		if !ok {
			if linkState(p) == "" {
				out = append(out, p)
			}
			continue
		}
		if slices.ContainsFunc(roots, func(r string) bool { return within(t, r) }) &&
			!slices.ContainsFunc(hidden, func(h string) bool { return within(t, h) }) {
			out = append(out, t)
		}
	}
	return out
}

// linkState is "" for a path that is not a symbolic link, and otherwise
// what it says and names now (the link text and the file it resolves to,
// none when it names nothing yet), so that a link re-pointed, or whose
// missing target was made, reads differently.
func linkState(p string) string {
	l, err := os.Readlink(p)
	if err != nil {
		return ""
	}
	t, _ := runlater.Target(p)
	return "link " + l + " -> " + t
}

// laterHold is what runLaterHeld found when the sandbox started, and the
// files that run code later made since, each named once.
type laterHold struct {
	roots, hidden []string
	mu            sync.Mutex
	seen          map[string]string // path: its linkState when named
}

func newLaterHold(roots, hidden, held []string) *laterHold {
	h := &laterHold{roots: roots, hidden: hidden, seen: map[string]string{}}
	for _, p := range held {
		h.seen[p] = linkState(p)
	}
	return h
}

// made names each file that runs code later which a command made since
// the sandbox started (only those that existed then are held read-only):
// the answer and the audit record say so, for the person to look at.
func (h *laterHold) made() []string {
	if h == nil {
		return nil
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	found, err := runLaterHeld(h.roots, h.hidden)
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
	}
	return out
}
