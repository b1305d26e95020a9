package sandbox

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/sentinelhq/sentinel/internal/gitdir"
	"github.com/sentinelhq/sentinel/internal/userstate"
)

// Starting git for the person's identity cost every `sentinel sandbox run`
// and every run a few milliseconds. Its answer is kept in the user's state
// directory (which no coder can write), signed with the user's record key,
// per workspace, and used only while everything it may come from is
// unchanged: the git binary; the environment's GIT_* variables, HOME and
// XDG_CONFIG_HOME; the system and global config files, present or not; the
// repository's config, worktree config and HEAD (an includeIf onbranch:
// follows the branch); and each file git read a key from or an include
// names, active or not, present or not. A stale answer could only put a
// wrong author on the sandbox's commits — never let anything in.

// identityCache holds git's answers, per workspace.
var identityCache = userstate.DirCache{File: "git-identity-cache.json", Purpose: "sandbox git identity cache v2", Entries: 32}

// identityKey names one question: git, dir and the stamps of what the
// answer may come from (files are the answer's own).
func identityKey(gitBin, dir string, files []string) string {
	h := sha256.New()
	fmt.Fprintf(h, "dir %s\n", dir)
	for _, k := range []string{"HOME", "XDG_CONFIG_HOME", "PATH"} {
		fmt.Fprintf(h, "env %s=%s\n", k, os.Getenv(k))
	}
	var gitVars []string
	for _, kv := range os.Environ() {
		if strings.HasPrefix(kv, "GIT_") {
			gitVars = append(gitVars, kv)
		}
	}
	slices.Sort(gitVars)
	for _, kv := range gitVars {
		fmt.Fprintf(h, "env %s\n", kv)
	}
	userstate.Stamp(h, gitBin)
	real, err := filepath.EvalSymlinks(gitBin)
	if err == nil {
		userstate.Stamp(h, real)
	}
	home := homeDir()
	fixed := []string{"/etc/gitconfig", filepath.Join(home, ".gitconfig"), filepath.Join(home, ".config", "git", "config")}
	if real != "" {
		fixed = append(fixed, filepath.Join(filepath.Dir(filepath.Dir(real)), "etc", "gitconfig")) // git's own prefix
	}
	if x := os.Getenv("XDG_CONFIG_HOME"); x != "" {
		fixed = append(fixed, filepath.Join(x, "git", "config"))
	}
	dotGit, repoFiles := repoConfigFiles(dir)
	if st, err := os.Stat(dotGit); err == nil && st.IsDir() {
		userstate.StampWhatItIs(h, dotGit) // git's own work in it (an index, a lock) keeps the answer
	} else if dotGit != "" {
		userstate.Stamp(h, dotGit) // a "gitdir:" file, whose content counts
	}
	for _, p := range append(append(fixed, repoFiles...), files...) {
		userstate.Stamp(h, p)
	}
	return hex.EncodeToString(h.Sum(nil))
}

// repoConfigFiles finds the repository dir is in: its .git entry, and the
// files git reads its config and branch from (gitdir.ConfigFiles). Both
// empty when dir is in no repository.
func repoConfigFiles(dir string) (dotGit string, files []string) {
	for d := dir; ; d = filepath.Dir(d) {
		dotGit := filepath.Join(d, ".git")
		if st, err := os.Stat(dotGit); err == nil {
			gd := dotGit
			if !st.IsDir() { // a worktree's or submodule's "gitdir: PATH"
				var ok bool
				if gd, ok = gitdir.FileTarget(dotGit); !ok {
					return dotGit, nil
				}
			}
			return dotGit, gitdir.ConfigFiles(gd)
		}
		if d == filepath.Dir(d) {
			return "", nil
		}
	}
}

// cachedIdentity is the kept answer for dir, if everything it may come
// from is unchanged and its signature holds.
func cachedIdentity(gitBin, dir string) (identity, bool) {
	var id identity
	key, ok := identityCache.Get(dir, &id)
	if !ok || key != identityKey(gitBin, dir, id.Files) {
		return identity{}, false
	}
	return id, true
}

// keepIdentity stores git's answer for dir.
func keepIdentity(gitBin, dir string, id identity) {
	identityCache.Put(dir, identityKey(gitBin, dir, id.Files), id)
}

func homeDir() string {
	h, _ := os.UserHomeDir()
	return h
}
