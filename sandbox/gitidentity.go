package sandbox

import (
	"context"
	"os/exec"
	"strings"
	"time"
)

// GitIdentity is the person's user.name and user.email as their own git
// sees them in dir (global, system and the repository's config), or empty
// strings when they have none. Only these two keys are read: credential
// helpers, url rewrites and signing keys stay outside the sandbox.
func GitIdentity(dir string) (name, email string) {
	// One git start for both keys (each start costs every sandboxed
	// command a few milliseconds); the last value of a key wins, as with
	// git config --get.
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	c := exec.CommandContext(ctx, "git", "config", "-z", "--get-regexp", `^user\.(name|email)$`)
	c.Dir = dir
	out, err := c.Output()
	if err != nil {
		return "", ""
	}
	for _, entry := range strings.Split(string(out), "\x00") {
		key, value, _ := strings.Cut(entry, "\n")
		switch key {
		case "user.name":
			name = strings.TrimSpace(value)
		case "user.email":
			email = strings.TrimSpace(value)
		}
	}
	return name, email
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
