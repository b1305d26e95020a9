package sandbox

// An overlay workspace (Profile.Overlay): the coder's workspace is the upper
// layer of an overlay whose lower layer is a read-only checkout Sentinel
// made once and shares between runs of the same snapshot. Inside the
// sandbox the workspace path shows the merged view; every write the coder
// makes lands in the upper directory (the workspace on the host), deletions
// as overlayfs whiteouts. The lower layer is never mounted anywhere a coder
// can write: it is only a layer, reached through a descriptor Sentinel
// opened, and overlayfs never writes to a lower layer.
//
// Sentinel reads the result back through View: a read-only overlay of the
// upper over the lower in a private mount namespace of its own, so the
// change is computed on exactly what the coder saw (workspace.go in the
// runner).

import (
	"fmt"
	"os"
	"path/filepath"
)

// Overlay makes Profile.Workspace the upper layer of an overlay over Lower.
type Overlay struct {
	// Lower is the shared read-only checkout (never writable by a coder).
	Lower string
	// Work is overlayfs' work directory: empty, private to this workspace,
	// beside it (in the same parent directory).
	Work string
}

// normalizeOverlay resolves and checks the overlay's directories.
func normalizeOverlay(o *Overlay, workspace string) (*Overlay, error) {
	if o == nil {
		return nil, nil
	}
	out := &Overlay{}
	for _, d := range []struct {
		what    string
		in      string
		out     *string
		fixHint string
	}{{"lower", o.Lower, &out.Lower, "make the shared checkout again"}, {"work", o.Work, &out.Work, "create it beside the workspace"}} {
		if !filepath.IsAbs(d.in) {
			return nil, fmt.Errorf("sandbox profile: overlay %s directory %q is not absolute; give a full path", d.what, d.in)
		}
		p := resolve(filepath.Clean(d.in))
		st, err := os.Stat(p)
		if err != nil || !st.IsDir() {
			return nil, fmt.Errorf("sandbox profile: overlay %s directory %s is not a directory; %s", d.what, d.in, d.fixHint)
		}
		if within(p, workspace) || within(workspace, p) {
			return nil, fmt.Errorf("sandbox profile: overlay %s directory %s overlaps the workspace %s; keep the layers apart", d.what, p, workspace)
		}
		*d.out = p
	}
	if filepath.Dir(out.Work) != filepath.Dir(workspace) {
		return nil, fmt.Errorf("sandbox profile: overlay work directory %s is not beside the workspace %s; make it in %s", out.Work, workspace, filepath.Dir(workspace))
	}
	return out, nil
}
