package mcpserver

import (
	"fmt"
	"path/filepath"
	"strings"

	"github.com/sentinelhq/sentinel/policy"
)

// execRunLater gives exec's writes the file tools' answer for files that
// run code later (runLaterGuard): every file the line writes, as the
// policy's own write judgement finds them (redirection targets, options
// that name an output file such as git log --output=F), is refused when
// runlater.toml calls it the person's, for every program, whatever
// allowed_commands covers (allowlist, strict and policy modes: in
// unrestricted mode any program runs, and only the sandbox can hold a
// file; it does not hold these yet). With unknownToo (allowlist
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
