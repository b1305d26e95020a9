package mcpserver

import (
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/sentinelhq/sentinel/internal/filestamp"
	"github.com/sentinelhq/sentinel/internal/runlater"
	"github.com/sentinelhq/sentinel/internal/textsafe"
)

// The programs of an installed environment — node_modules/.bin (npm
// scripts and npx run them), a virtual environment's bin or Scripts (its
// python, pip and console scripts), composer's vendor/bin, a tox
// environment's bin, a .local/bin (runlater.EnvWhy's table) — run code later like the files
// newLaterHold holds, but are not held: `npm install` and `pip install`
// rewrite them, and holding them breaks the install. Instead each
// command is bracketed by a stamp of every entry of those directories
// (type, mode, size, identity and change time, and for a link its text
// and the identity and change time of the file it names, which is where
// a package's program lives), bounded by maxEnvEntries, and every entry
// new or changed after it is named in the answer and the audit record,
// flagged as running code later. A gone entry leaves nothing to run.

// maxEnvEntries bounds how many entries a stamp covers, over every
// environment directory; past it the answer says the rest was not looked at.
const maxEnvEntries = 20000

// maxEnvLines bounds how many changed entries one answer names.
const maxEnvLines = 20

// envStamps are the environment directories' entries at a moment.
type envStamps struct {
	dirs  map[string]bool
	stamp map[string]string
	over  bool
}

// envsNow stamps the environment directories the last look found (before
// a command).
func (h *laterHold) envsNow() envStamps {
	if h == nil {
		return envStamps{}
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	return stampEnvs(h.envs)
}

func stampEnvs(dirs []string) envStamps {
	s := envStamps{dirs: map[string]bool{}, stamp: map[string]string{}}
	for _, d := range dirs {
		s.dirs[d] = true
		entries, err := os.ReadDir(d)
		if err != nil {
			continue
		}
		for _, e := range entries {
			if len(s.stamp) >= maxEnvEntries {
				s.over = true
				return s
			}
			p := filepath.Join(d, e.Name())
			s.stamp[p] = envEntryStamp(p)
		}
	}
	return s
}

// envEntryStamp is what tells an entry changed: its own stamp, and for a
// link the link text and the stamp of what it names.
func envEntryStamp(p string) string {
	fi, err := os.Lstat(p)
	if err != nil {
		return "gone"
	}
	st := idStamp(fi)
	if fi.Mode()&os.ModeSymlink != 0 {
		l, _ := os.Readlink(p)
		st += " -> " + l
		if ti, err := os.Stat(p); err == nil {
			st += " " + idStamp(ti)
		}
	}
	return st
}

func idStamp(fi os.FileInfo) string {
	s := fmt.Sprintf("%s %d %d", fi.Mode(), fi.Size(), fi.ModTime().UnixNano())
	if id, ok := filestamp.Of(fi); ok {
		s += fmt.Sprintf(" %d %d %d.%09d", id.Dev, id.Ino, id.CtimeSec, id.CtimeNsec)
	}
	return s
}

// envChanges names each entry new or changed between before and after.
func envChanges(before, after envStamps) []string {
	var lines []string
	for _, p := range slices.Sorted(maps.Keys(after.stamp)) {
		b, had := before.stamp[p]
		if had && b == after.stamp[p] {
			continue
		}
		verb := "changed"
		if !had {
			verb = "made"
		}
		lines = append(lines, verb+" "+textsafe.Line(p)+" ("+envWhy(filepath.Dir(p))+")")
	}
	var out []string
	if n := len(lines); n > 0 {
		if n > maxEnvLines {
			lines = append(lines[:maxEnvLines], fmt.Sprintf("and %d more", n-maxEnvLines))
		}
		out = append(out, fmt.Sprintf("the command made or changed %d program(s) of an installed environment, which run code later; the person must look at them before running scripts here: %s", n, strings.Join(lines, "; ")))
	}
	if after.over || before.over {
		out = append(out, fmt.Sprintf("more than %d entries in installed environments' program directories (node_modules/.bin, vendor/bin, virtual and tox environments, .local/bin) under the rw paths: only the first were compared", maxEnvEntries))
	}
	return out
}

// envWhy says why an environment directory's programs run later.
func envWhy(dir string) string { return runlater.EnvWhy(dir) }
