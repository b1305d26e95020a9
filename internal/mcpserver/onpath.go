package mcpserver

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// onPath is where a name the person types is looked up: the directories
// on this server's PATH and Sentinel's launcher shims (the default shim
// dir, which puts the person's agents in the sandbox, and which a desktop
// app's PATH may lack). A file written, moved, deleted or re-moded there
// runs on the host, outside the sandbox, the next time the person types
// its name (a program dropped into ~/.local/bin ahead of /usr/bin, a
// shim rewritten or removed so that `claude` runs bare), so the file
// tools never change one: SECURITY.md, "In place is not a copy".
func onPath() []string {
	var dirs []string
	for _, d := range filepath.SplitList(os.Getenv("PATH")) {
		if filepath.IsAbs(d) {
			dirs = append(dirs, d)
		}
	}
	if d := os.Getenv("XDG_DATA_HOME"); filepath.IsAbs(d) {
		dirs = append(dirs, filepath.Join(d, "sentinel", "shims"))
	}
	if home, err := os.UserHomeDir(); err == nil && filepath.IsAbs(home) {
		dirs = append(dirs, filepath.Join(home, ".local", "share", "sentinel", "shims"))
	}
	var out []string
	for _, d := range dirs {
		if c, err := Canonical(d); err == nil {
			d = c
		} else {
			d = filepath.Clean(d)
		}
		if d != rootOf(d) && !slices.Contains(out, d) {
			out = append(out, d)
		}
	}
	return out
}

// onPathGuard refuses a write at or inside a directory on PATH, or to a
// directory that holds one (moving or deleting ~/.local takes its bin
// off PATH with it). A configured root itself is not refused here: the
// tools never write a root whole.
func (g guards) onPathGuard(pl Place) error {
	if pl.Rel == "." {
		return nil
	}
	for _, d := range g.onPath {
		if within(pl.Abs, d) || within(d, pl.Abs) {
			return &Refusal{Class: ClassReadOnlyPath, Rule: "on PATH (" + d + ")",
				Reason: pl.Abs + " is where the programs the person types are found (" + d + " is on PATH or holds Sentinel's launcher shims): a change there runs on this machine, outside the sandbox, the next time a name is typed",
				Use:    "ask the person to change it themselves"}
		}
	}
	return nil
}

// pathDirsIn is each directory on PATH that exists inside one of the
// writable roots: exec's sandbox keeps them read-only, as the file tools
// do (a root that is itself on PATH is not writable whole; the config
// names a project, not a bin directory).
func pathDirsIn(onPath, roots []string) []string {
	var out []string
	for _, d := range onPath {
		if st, err := os.Stat(d); err != nil || !st.IsDir() {
			continue
		}
		for _, r := range roots {
			if r != "" && within(d, r) && d != r {
				out = append(out, d)
				break
			}
		}
	}
	return out
}

// absolutePATH is path with its relative and empty entries left out, and
// whether any was. A relative entry ("." or "bin", an empty one being the
// working directory) finds a program in whatever directory a command runs
// in: inside the sandbox that is an rw path, where the file tools and
// commands write, so `ls` allowed by an entry would run a client's ./ls.
// Exec's commands get the absolute entries only.
func absolutePATH(path string) (string, bool) {
	var keep []string
	dropped := false
	for _, d := range filepath.SplitList(path) {
		if filepath.IsAbs(d) {
			keep = append(keep, d)
		} else {
			dropped = true
		}
	}
	return strings.Join(keep, string(os.PathListSeparator)), dropped
}
