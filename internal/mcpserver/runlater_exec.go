package mcpserver

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/sentinelhq/sentinel/internal/runlater"
	"github.com/sentinelhq/sentinel/policy"
)

// execRunLater gives exec's writes the file tools' answer for files that
// run code later (runLaterGuard): every file the line writes, as the
// policy's own write judgement finds them (redirection targets, options
// that name an output file such as git log --output=F), is refused when
// runlater.toml calls it the person's, for every program, whatever
// allowed_commands covers (allowlist, strict and policy modes: in
// unrestricted mode any program runs, and only the sandbox can hold a
// file: newLaterHold, for those that exist). With unknownToo (allowlist
// and strict modes, where the allowlist stands for the person's answer) a
// write whose target cannot be known before the line runs (an expansion,
// a glob) is refused too: it could name such a file. v and w are the gate
// engine's verdict on the line and what it writes (policyGate.judge).
func (s *Server) execRunLater(line, cwd string, v policy.Verdict, w policy.ShellWrites, unknownToo bool) error {
	if unknownToo && !w.Unknown && writesUnplaced(v.Parts, cwd) { // runlater_unplaced.go
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

// heldMounts is what the sandbox binds read-only for the paths
// newLaterHold found: each itself, or for a symbolic link the file it
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
