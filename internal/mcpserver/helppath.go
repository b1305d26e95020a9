package mcpserver

import (
	"fmt"
	"slices"
	"strings"
)

// opAliases are other names clients and people use for a tool.
var opAliases = map[string]string{
	"read_file": "read", "list_dir": "list", "ls": "list", "grep": "search",
	"write": "edit", "write_file": "edit", "edit_file": "edit",
	"mv": "move", "rename": "move", "cp": "copy", "rm": "delete", "remove": "delete",
	"upload": "upload_file", "run": "exec", "shell": "exec", "systemctl": "service",
}

// normalizeOp is name as a tool name: "op:read", "OP: Read", " read " and
// "read_file" are all "read". A name it does not know comes back as
// written, trimmed and lower-cased, for the caller to refuse.
func normalizeOp(name string) string {
	n := opName(name)
	if a, ok := opAliases[n]; ok {
		return a
	}
	return n
}

// opName is name without an "op:" prefix, trimmed and lower-cased, with
// no aliases: config keys (disabled_ops) name tools exactly, so "rm" there
// is refused rather than read as delete.
func opName(name string) string {
	n := strings.ToLower(strings.TrimSpace(name))
	if rest, ok := strings.CutPrefix(n, "op:"); ok {
		n = strings.TrimSpace(rest)
	}
	return strings.ReplaceAll(n, "-", "_")
}

// opsAt are the tools that act at a place with access access, less the
// disabled ones, and the reason each other tool does not.
func (c *Config) opsAt(pl Place) (on, off []string) {
	readOps := []string{"read", "list", "search", "exec"}
	for _, op := range Ops {
		if op == "help" || op == "capabilities" || op == "service" || op == "playbook" {
			continue
		}
		switch {
		case c.disabled(op):
			off = append(off, op+" (disabled)")
		case op == "upload_file" && (c.uploadBase == "" || !within(pl.Abs, c.uploadBase)):
			off = append(off, op+" (only inside upload_base)")
		case !slices.Contains(readOps, op) && pl.Access != AccessReadWrite:
			off = append(off, op+" (read-only path)")
		default:
			on = append(on, op)
		}
	}
	return on, off
}

// helpPath says what the tools may do at p, and why not where they may not.
func (s *Server) helpPath(p string) (string, error) {
	c := s.cfg
	pl, err := c.Resolve(p, AccessRead)
	if err != nil {
		return "", err
	}
	if err := s.state.checkText(pl.Abs); err != nil {
		return "", err
	}
	on, off := c.opsAt(pl)
	var b strings.Builder
	fmt.Fprintf(&b, "%s: under %s (access %s)\n", pl.Abs, pl.Root, pl.Access)
	fmt.Fprintf(&b, "tools here: %s\n", strings.Join(on, ", "))
	if len(off) > 0 {
		fmt.Fprintf(&b, "not here: %s\n", strings.Join(off, ", "))
	}
	if pl.Access == AccessReadWrite {
		b.WriteString("git dirs under it stay read-only; what delete or an overwrite removes is kept as a backup (help topic=files)\n")
	}
	return b.String(), nil
}
