package sandbox

import (
	"context"
	"github.com/sentinelhq/sentinel/internal/hostbin"
	"os/exec"
	"path/filepath"
	"strings"
	"time"
)

// identityQuery asks git for the two keys and for every include, active or
// not, so the cache (gitidentity_cache.go) knows each file the answer may
// come from.
const identityQuery = `^(user\.(name|email)|include\.path|includeif\..*\.path)$`

// GitIdentity is the person's user.name and user.email as their own git
// sees them in dir (global, system and the repository's config), or empty
// strings when they have none. Only these two keys are read: credential
// helpers, url rewrites and signing keys stay outside the sandbox.
//
// git is asked once for both keys, and its answer is kept while nothing it
// could come from changes (gitidentity_cache.go): each start of git cost
// every sandboxed command and run a few milliseconds.
func GitIdentity(dir string) (name, email string) {
	gitBin, err := hostbin.Find("git") // the system's git: it runs on the host
	if err != nil {
		return "", ""
	}
	dir = filepath.Clean(dir)
	if id, ok := cachedIdentity(gitBin, dir); ok {
		return id.Name, id.Email
	}
	// What every answer comes from, stamped before git reads it: a change
	// made while git answers must not be kept as what it read.
	before := identityKey(gitBin, dir, nil)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	c := exec.CommandContext(ctx, gitBin, "config", "-z", "--show-origin", "--get-regexp", identityQuery)
	c.Dir = dir
	out, err := c.Output()
	if err != nil {
		if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 1 { // 1: none of the keys is set
			return "", ""
		}
	}
	id, known := readIdentity(string(out), dir)
	if known && identityKey(gitBin, dir, nil) == before {
		keepIdentity(gitBin, dir, id)
	}
	return id.Name, id.Email
}

// identity is what git answered: the two keys (the last value of a key
// wins, as with git config --get) and the files the answer may come from.
type identity struct {
	Name  string   `json:"name"`
	Email string   `json:"email"`
	Files []string `json:"files"` // the config files git read a key from, and every include's target
}

// readIdentity reads git config -z --show-origin output: entries of
// "ORIGIN\0KEY\nVALUE\0". Relative paths are dir's, an include's relative
// target its including file's. known is false when an include names a file
// this cannot place (~user/…): that answer is not kept.
func readIdentity(out, dir string) (id identity, known bool) {
	known = true
	abs := func(p, base string) string {
		if filepath.IsAbs(p) {
			return filepath.Clean(p)
		}
		return filepath.Join(base, p)
	}
	fields := strings.Split(out, "\x00")
	for i := 0; i+1 < len(fields); i += 2 {
		origin, entry := fields[i], fields[i+1]
		file, isFile := strings.CutPrefix(origin, "file:")
		if isFile {
			file = abs(file, dir)
			id.Files = append(id.Files, file)
		}
		key, value, _ := strings.Cut(entry, "\n")
		switch {
		case key == "user.name":
			id.Name = strings.TrimSpace(value)
		case key == "user.email":
			id.Email = strings.TrimSpace(value)
		case strings.HasSuffix(key, ".path") && value != "":
			if rest, ok := strings.CutPrefix(value, "~/"); ok {
				id.Files = append(id.Files, filepath.Join(homeDir(), rest))
			} else if strings.HasPrefix(value, "~") {
				known = false
			} else if isFile {
				id.Files = append(id.Files, abs(value, filepath.Dir(file)))
			} else {
				id.Files = append(id.Files, abs(value, dir))
			}
		}
	}
	return id, known
}

// GitIdentityEnv gives a sandboxed git the person's identity through the
// environment (their ~/.gitconfig stays hidden). Nothing when they have no
// complete identity: git then says so itself.
func GitIdentityEnv(dir string) []string {
	name, email := GitIdentity(dir)
	if name == "" || email == "" || strings.ContainsAny(name+email, "\n\x00") {
		return nil
	}
	return []string{"GIT_AUTHOR_NAME=" + name, "GIT_AUTHOR_EMAIL=" + email,
		"GIT_COMMITTER_NAME=" + name, "GIT_COMMITTER_EMAIL=" + email}
}
