package mcpserver

import (
	"fmt"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/sentinelhq/sentinel/internal/placeflags"
	"github.com/sentinelhq/sentinel/internal/textsafe"
	"github.com/sentinelhq/sentinel/runner/checkpoint"
)

// A writing call's change that an in-place run's end report flags, and
// that no run-later name shows (laterHold.made tells those), is told
// after the call the same way, from the diff of its checkpoint
// (callPoints.after) with the same code (placeflags): a file or folder
// made writable by other users (chmod o+w Makefile, chmod 777 build), a
// new default ACL (setfacl -d -m o::rwx .), a changed file the person's
// makefiles include or run make on, an executable made or changed in
// a folder of the place on the person's PATH (the server's PATH, an
// .envrc's PATH_add), and a changed script their Makefile, package.json,
// justfile or .envrc runs. Each goes in the answer and, since a hostile client
// need not show it, to the person (tell_person.go). The diff is of the
// stretches the call ran in (callwindow.go): of its points' records, or of
// stamps of the place when points are off (checkpoint.go: the bounds, a
// failure).

// placeDiff is what one stretch's changes to one rw path flag, and the
// other calls running in it (none: the call ran alone).
type placeDiff struct {
	root  string
	flags []placeflags.Flag
	with  []string
}

// placeReads is an rw path's makefiles, runner files and PATH folders as
// read, kept while the files read (placeflags.IsRead) are unchanged.
type placeReads struct {
	done  bool
	key   string
	reads placeflags.Reads
}

// readsKey names each file of m that placeflags.Read reads, with its
// content's hash (its stamp in a stamp of the place: checkpoint.Stamp).
func readsKey(m *checkpoint.Manifest) string {
	var b strings.Builder
	for _, e := range m.Entries {
		if e.Kind == checkpoint.KindFile && placeflags.IsRead(path.Base(e.Path)) {
			fmt.Fprintf(&b, "%s\x00%s\x00%d.%d.%d.%d\n", e.Path, e.Hash, e.Size, e.MTime, e.CTime, e.Ino)
		}
	}
	return b.String()
}

// flagsOf are the flags of changes made to root since before (c.mu
// held): the makefiles and PATH folders are read from the place as before
// left it, again only when one of the files read changed (the ones the
// sandbox holds read-only cannot have).
func (pr *placeReads) flagsOf(root string, before *checkpoint.Manifest, changes []checkpoint.Change) []placeflags.Flag {
	if key := readsKey(before); !pr.done || pr.key != key {
		*pr = placeReads{done: true, key: key, reads: placeflags.Read(root, before, os.Getenv("PATH"), os.Getenv("MAKEFILES"))}
	}
	var files []string
	var owners []placeflags.Flag
	abs := make([]checkpoint.Change, 0, len(changes))
	for _, c := range changes {
		if c.After == nil {
			continue // a deletion leaves nothing behind to run
		}
		files = append(files, c.Path)
		whole := filepath.Join(root, filepath.FromSlash(c.Path)) // the flag's fix names the whole path
		if why := placeflags.Owner(c, whole); why != "" {
			owners = append(owners, placeflags.Flag{Path: whole, Reason: why})
		}
		c.Path = whole
		abs = append(abs, c)
	}
	out := append(placeflags.Modes(abs), owners...)
	flags := append(append(pr.reads.Make(files), pr.reads.OnPath(changes)...), pr.reads.Scripts(changes)...)
	flags = append(flags, pr.reads.LibPathShadows(changes, os.Getenv)...) // PERL5LIB, RUBYLIB, NODE_PATH …
	flags = append(flags, pr.reads.Linked(changes)...)                    // what a run-later link or a git hook reaches
	for _, f := range append(flags, pr.reads.PythonShadows(changes, os.Getenv("PYTHONPATH"))...) {
		f.Path = filepath.Join(root, filepath.FromSlash(f.Path))
		out = append(out, f)
	}
	return out
}

// flagLines are the call's flags as lines of its answer, one a path.
func (p *callPoint) flagLines() []string {
	if p == nil {
		return nil
	}
	var out []string
	for _, d := range p.diffs {
		at := map[string]int{}
		var lines []string
		for _, f := range d.flags {
			why := strings.TrimPrefix(f.Reason, placeflags.Dangerous)
			if i, ok := at[f.Path]; ok {
				lines[i] += " · " + why
				continue
			}
			at[f.Path] = len(lines)
			who := "the call"
			if len(d.with) > 0 {
				who = "the call or another writing call running with it (" + withNamed(d.with) + ")"
			}
			lines = append(lines, who+" changed "+f.Path+": "+why)
		}
		for _, l := range lines {
			out = append(out, textsafe.Line(l)) // names are the client's
		}
	}
	return out
}

// tellFlags tells the person the call's flags and is the note for its
// answer ("" when none), with the mount points its point found first
// (the person heard those when the point was taken).
func (s *Server) tellFlags(op string, req *mcp.CallToolRequest, p *callPoint) string {
	lines := p.flagLines()
	if len(lines) > 0 && s.run != nil && s.run.tell != nil {
		s.run.tell(callWhat(op, req), lines)
	}
	if p != nil {
		lines = append(slices.Clone(p.mounts), lines...)
	}
	return sweepNote(lines)
}

// callWhat names a call to the person: the tool and its arguments.
func callWhat(op string, req *mcp.CallToolRequest) string {
	what := "sentinel mcp " + op
	if req != nil && req.Params != nil {
		what += ": " + argSummary(string(req.Params.Arguments))
	}
	return what
}
