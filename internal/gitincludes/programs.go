package gitincludes

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// Git runs some commands its config names by itself, during ordinary
// commands: core.fsmonitor on every status, a pager, an editor, a diff
// textconv or merge driver, a clean/smudge filter, a credential helper, an
// ssh command. One written as a path (`core.fsmonitor = tools/fsmon`,
// `core.pager = ~/bin/pager`) that lies where a writer may write runs
// what the writer put there on the person's next git command, as a hook
// would. Aliases are left out: the person runs one by name, as they run
// the project's Makefile.

// programKeys match the keys whose value is a command git runs by itself.
const programKeys = `^(core\.(fsmonitor|pager|editor|sshcommand|askpass|gitproxy)|pager\..*|sequence\.editor|gpg(\..*)?\.program|credential(\..*)?\.helper|diff\.external|diff\..*\.(textconv|command)|merge\..*\.driver|filter\..*\.(clean|smudge|process)|interactive\.difffilter|uploadpack\.packobjectshook)$`

// programWords are what a config file must hold (in any case) to set one
// of programKeys, or to include a file that may.
var programWords = []string{"fsmonitor", "pager", "editor", "command", "askpass", "gitproxy", "program", "helper", "external", "textconv", "driver", "clean", "smudge", "process", "difffilter", "packobjectshook", "include"}

// Programs are the files the commands git config names (programKeys), in
// every scope, for the repository at root and each of gitDirs, name as a
// path that lies strictly inside one of roots: each word of a command
// that holds a slash, relative to the repository's work tree (where git
// runs them), ~ expanded. Nothing is made.
func Programs(ctx context.Context, root string, gitDirs, roots []string) []string {
	out, _ := ProgramsAndLinks(ctx, root, gitDirs, roots)
	return out
}

// ProgramsAndLinks are Programs and, as Files gives them, the symbolic
// links inside roots on the way to one, each with its target: a read-only
// mount holds what a link points to, so a caller must notice one
// re-pointed (tools/fsmon.sh -> real.sh made to point at the writer's).
func ProgramsAndLinks(ctx context.Context, root string, gitDirs, roots []string) (out []string, links map[string]string) {
	links = map[string]string{}
	type value struct{ v, worktree string }
	var vals []value
	for _, v := range regexpValues(ctx, root, programKeys) {
		vals = append(vals, value{v, root})
	}
	global := regexpValues(ctx, root, programKeys, "--global")
	for _, d := range gitDirs {
		if filepath.Base(d) != ".git" {
			continue // no work tree here to be relative to
		}
		wt := filepath.Dir(d)
		own := slices.Clone(global)
		for _, cfg := range configsOf(ctx, d, programWords...) {
			own = append(own, regexpValues(ctx, root, programKeys, "--file", cfg)...)
		}
		for _, v := range own {
			vals = append(vals, value{v, wt})
		}
	}
	for _, f := range conditionalFiles(ctx, root, gitDirs) { // see HooksDirs
		for _, v := range regexpValues(ctx, root, programKeys, "--file", f) {
			for _, wt := range worktrees(root, gitDirs) {
				vals = append(vals, value{v, wt})
			}
		}
	}
	home, _ := os.UserHomeDir()
	for _, pv := range vals {
		for _, w := range commandPaths(pv.v) {
			switch {
			case strings.HasPrefix(w, "~/") && home != "":
				w = filepath.Join(home, w[2:])
			case !filepath.IsAbs(w):
				w = filepath.Join(pv.worktree, w)
			}
			note(ctx, w)
			w = filepath.Clean(w)
			for a := w; a != filepath.Dir(a); a = filepath.Dir(a) {
				if st, err := os.Lstat(a); err == nil && st.Mode()&os.ModeSymlink != 0 && Inside(a, roots) {
					links[a], _ = os.Readlink(a)
				}
			}
			if p := Resolved(filepath.Clean(w)); Inside(p, roots) && !slices.Contains(out, p) {
				out = append(out, p)
			}
		}
	}
	return out, links
}

// commandPaths are the words of the command line v that name a path (hold
// a slash): quotes and a leading ! dropped, an option's value after =.
func commandPaths(v string) []string {
	v = strings.NewReplacer(`"`, " ", `'`, " ", `\`, " ", ";", " ", "|", " ", "&", " ", "`", " ", "$(", " ", ")", " ", "<", " ", ">", " ").Replace(strings.TrimPrefix(strings.TrimSpace(v), "!"))
	var out []string
	for _, w := range strings.Fields(v) {
		if strings.HasPrefix(w, "-") {
			_, w, _ = strings.Cut(w, "=")
		}
		if strings.Contains(w, "/") {
			out = append(out, w)
		}
	}
	return out
}

// regexpValues are the values of every key matching re that git config
// gives in dir (every scope without scope args), includes followed.
func regexpValues(ctx context.Context, dir, re string, scope ...string) []string {
	args := append([]string{"config", "--includes", "-z"}, scope...)
	b, err := hostGit(ctx, dir, append(args, "--get-regexp", re))
	noteRun(ctx, err)
	if err != nil {
		return nil
	}
	var out []string
	for _, kv := range strings.Split(string(b), "\x00") {
		if _, v, ok := strings.Cut(kv, "\n"); ok && v != "" && len(out) < maxLines {
			out = append(out, v)
		}
	}
	return out
}
