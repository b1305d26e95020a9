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
	get := func(key string) string {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		c := exec.CommandContext(ctx, "git", "config", "--get", key)
		c.Dir = dir
		out, err := c.Output()
		if err != nil {
			return ""
		}
		return strings.TrimSpace(string(out))
	}
	return get("user.name"), get("user.email")
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
