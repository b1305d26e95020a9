package mcpserver

import (
	"os"
	"path"
	"path/filepath"
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
// need not show it, to the person (tell_person.go). With points off
// (checkpoint.go: the bounds, a failure) there is no diff and nothing of
// this is told.

// placeDiff is what one call's change to one rw path flags.
type placeDiff struct {
	root  string
	flags []placeflags.Flag
}

// placeReads is an rw path's makefiles, runner files and PATH folders as
// read, kept while the files read (placeflags.IsRead) are unchanged.
type placeReads struct {
	done  bool
	key   string
	reads placeflags.Reads
}

// readsKey names each file of m that placeflags.Read reads, with its
// content's hash.
func readsKey(m *checkpoint.Manifest) string {
	var b strings.Builder
	for _, e := range m.Entries {
		if e.Kind == checkpoint.KindFile && placeflags.IsRead(path.Base(e.Path)) {
			b.WriteString(e.Path + "\x00" + e.Hash + "\n")
		}
	}
	return b.String()
}

// flagsOf are the flags of changes made to pl since before (c.mu held):
// the makefiles and PATH folders are read from the place as before left
// it, again only when one of the files read changed (the ones the
// sandbox holds read-only cannot have).
func (pl *placePoints) flagsOf(before *checkpoint.Manifest, changes []checkpoint.Change) []placeflags.Flag {
	root := pl.rec.Place
	if key := readsKey(before); !pl.reads.done || pl.reads.key != key {
		pl.reads = placeReads{done: true, key: key, reads: placeflags.Read(root, before, os.Getenv("PATH"))}
	}
	var files []string
	abs := make([]checkpoint.Change, 0, len(changes))
	for _, c := range changes {
		if c.After == nil {
			continue // a deletion leaves nothing behind to run
		}
		files = append(files, c.Path)
		c.Path = filepath.Join(root, filepath.FromSlash(c.Path)) // the flag's fix names the whole path
		abs = append(abs, c)
	}
	out := placeflags.Modes(abs)
	for _, f := range append(append(pl.reads.reads.Make(files), pl.reads.reads.OnPath(changes)...), pl.reads.reads.Scripts(changes)...) {
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
			lines = append(lines, "the call changed "+f.Path+": "+why)
		}
		for _, l := range lines {
			out = append(out, textsafe.Line(l)) // names are the client's
		}
	}
	return out
}

// tellFlags tells the person the call's flags and is the note for its
// answer ("" when none).
func (s *Server) tellFlags(op string, req *mcp.CallToolRequest, p *callPoint) string {
	lines := p.flagLines()
	if len(lines) == 0 {
		return ""
	}
	what := "sentinel mcp " + op
	if req != nil && req.Params != nil {
		what += ": " + argSummary(string(req.Params.Arguments))
	}
	if s.run != nil && s.run.tell != nil {
		s.run.tell(what, lines)
	}
	return sweepNote(lines)
}
