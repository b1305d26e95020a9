package mcpserver

import (
	"io/fs"
	"os"
	"path/filepath"

	"github.com/sentinelhq/sentinel/internal/userstate"
)

// stateGuard is Sentinel's own state, which no file tool reaches whatever
// the [[paths]] say: the user state dir (the record key, the service
// journal, the mcp audits and backups), the user config dir (config,
// policy, templates), this server's config file and its audit journal.
// Each is known by its device and inode (so a hard link, a bind mount or
// another spelling of the path is the same thing), and by its canonical
// path while it does not exist yet (so it cannot be created through the
// tools either).
type stateGuard struct {
	paths []string // canonical
	ids   map[ident]string
	infos []stateFile // where identOf has nothing (Windows)
}

type stateFile struct {
	fi   fs.FileInfo
	what string
}

// add knows fi as the state at what.
func (g *stateGuard) add(fi fs.FileInfo, what string) {
	if id, ok := identOf(fi); ok {
		g.ids[id] = what
		return
	}
	g.infos = append(g.infos, stateFile{fi, what})
}

func newStateGuard(configFile, auditPath string) *stateGuard {
	g := &stateGuard{ids: map[ident]string{}}
	var cands []string
	if d, err := userstate.Dir(); err == nil {
		cands = append(cands, d)
	}
	if d, err := os.UserConfigDir(); err == nil {
		cands = append(cands, filepath.Join(d, "sentinel"))
	}
	if home, err := os.UserHomeDir(); err == nil && home != "" {
		cands = append(cands, filepath.Join(home, ".local", "state", "sentinel"), filepath.Join(home, ".config", "sentinel"))
	}
	if configFile != "" {
		if abs, err := filepath.Abs(configFile); err == nil {
			cands = append(cands, abs)
		}
	}
	if auditPath != "" {
		cands = append(cands, auditPath, auditPath+".lock")
	}
	for _, c := range cands {
		if !filepath.IsAbs(c) {
			continue
		}
		if canon, err := Canonical(c); err == nil {
			c = canon
		}
		g.paths = append(g.paths, c)
		if fi, err := os.Stat(c); err == nil {
			g.add(fi, c)
			if fi.IsDir() {
				budget := maxStateEntries
				g.addFiles(c, 2, &budget)
			}
		}
	}
	return g
}

// maxStateEntries bounds the files of the state dirs known by identity.
const maxStateEntries = 4096

// addFiles knows the files already in a state dir (to depth levels) by
// their identity too, so a hard link to one elsewhere (the record key
// linked into a project) is refused as the file itself.
func (g *stateGuard) addFiles(dir string, depth int, budget *int) {
	ents, err := os.ReadDir(dir)
	if err != nil {
		return
	}
	for _, e := range ents {
		if *budget--; *budget < 0 {
			return
		}
		p := filepath.Join(dir, e.Name())
		fi, err := os.Lstat(p)
		if err != nil {
			continue
		}
		switch {
		case fi.Mode().IsRegular():
			g.add(fi, dir)
		case isPlainDir(fi):
			if depth > 1 {
				g.addFiles(p, depth-1, budget)
			}
		}
	}
}

// hidden is what the sandbox hides from commands.
func (g *stateGuard) hidden() []string { return g.paths }

func (g *stateGuard) refusal(abs, what string) error {
	return &Refusal{Class: ClassPathNotAllowed, Rule: "sentinel state (" + what + ")", Reason: abs + " is Sentinel's own state (its keys, journals, config and this server's audit), which no tool reaches",
		Use: "leave Sentinel's state alone; the person reads the audit with sentinel show"}
}

// check refuses a file or directory that is Sentinel's state.
func (g *stateGuard) check(fi fs.FileInfo, abs string) error {
	if id, ok := identOf(fi); ok {
		if what, ok := g.ids[id]; ok {
			return g.refusal(abs, what)
		}
	}
	for _, sf := range g.infos {
		if sameFile(fi, sf.fi) {
			return g.refusal(abs, sf.what)
		}
	}
	return nil
}

// checkText refuses a canonical path at or under a state location.
func (g *stateGuard) checkText(abs string) error {
	for _, p := range g.paths {
		if within(abs, p) {
			return g.refusal(abs, p)
		}
	}
	return nil
}
