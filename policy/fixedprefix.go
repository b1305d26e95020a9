package policy

import (
	"path/filepath"
	"strings"
)

// A path whose expansion follows a fixed directory (rm -rf /home/$USER,
// cp x /etc/$NAME, rm -rf "/Users/$USER/Library") lies under that
// directory whatever the expansion gives: when the directory is already
// outside the workspace or a credential location, the path is judged by
// it (issue 32, polcorp7 spell/var). The expansion still asks; only a deny
// of the fixed part is taken, so the reading can only tighten.

// notStatic marks out as not static, remembering how much of its text
// came before the first expansion.
func (out *word) notStatic(b *strings.Builder) {
	if out.static {
		out.fixed = b.Len()
	}
	out.static = false
}

// fixedPrefixDeny judges the fixed absolute directory before w's first
// expansion, keeping only a deny.
func (x *cmdCtx) fixedPrefixDeny(w word, write bool) {
	prefix := ""
	switch {
	case w.homeFixed > 0 && w.homeFixed <= len(w.val)+1 && x.c.home != "":
		// $HOME/../$USER: bash expands $HOME as it does ~ (issue 32,
		// polcorp8 destroy-out); the text up to the next expansion is fixed.
		prefix = x.c.home + w.val[:w.homeFixed-1]
	case w.fixed <= 0 || w.fixed > len(w.val):
		return
	default:
		prefix = w.val[:w.fixed]
	}
	dir := filepath.Dir(prefix + "x") // "/home/" and "/home/us" both lie in /home
	if !filepath.IsAbs(dir) || dir == "/" && prefix != "/" {
		return
	}
	p := filepath.Join(dir, "expansion-match")
	if f := x.c.judgePath(p, write); f.d == Deny {
		x.addF(f)
	}
}
