package runner

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"strings"
)

// hardenedConfig disables everything in git that can run a program or
// consult a config the coder could have written: hooks, fsmonitor, pagers,
// external diff and textconv, credential helpers, filters via attributes
// files. System and global config are ignored through the environment.
var hardenedConfig = []string{
	"-c", "core.hooksPath=/dev/null",
	"-c", "core.fsmonitor=false",
	"-c", "core.untrackedCache=false",
	"-c", "core.pager=cat",
	"-c", "core.attributesFile=/dev/null",
	"-c", "core.askPass=",
	"-c", "core.sshCommand=false",
	"-c", "diff.external=",
	"-c", "credential.helper=",
	"-c", "protocol.allow=never",
	"-c", "protocol.file.allow=always",
	"-c", "gc.auto=0",
	"-c", "maintenance.auto=false",
	"-c", "advice.detachedHead=false",
	"-c", "commit.gpgSign=false",
	"-c", "user.name=Sentinel",
	"-c", "user.email=sentinel@localhost",
}

// gitEnv is the environment every git call gets: no system or global config,
// no pager, no prompts, and none of the GIT_* variables the person's shell
// might carry (they could redirect the repository).
func gitEnv(extra ...string) []string {
	env := []string{
		"GIT_CONFIG_NOSYSTEM=1",
		"GIT_CONFIG_GLOBAL=/dev/null",
		"GIT_TERMINAL_PROMPT=0",
		"GIT_PAGER=cat",
		"PAGER=cat",
		"GIT_OPTIONAL_LOCKS=0",
		"LC_ALL=C",
	}
	for _, kv := range os.Environ() {
		k, _, _ := strings.Cut(kv, "=")
		if strings.HasPrefix(k, "GIT_") || k == "PAGER" || k == "LC_ALL" {
			continue
		}
		env = append(env, kv)
	}
	return append(env, extra...)
}

// git runs hardened git with the given environment additions in dir.
type gitCmd struct {
	dir   string
	env   []string
	stdin []byte
}

func (g gitCmd) run(ctx context.Context, args ...string) (string, error) {
	full := append(append([]string{}, hardenedConfig...), args...)
	cmd := exec.CommandContext(ctx, "git", full...)
	cmd.Dir = g.dir
	cmd.Env = gitEnv(g.env...)
	if g.stdin != nil {
		cmd.Stdin = bytes.NewReader(g.stdin)
	}
	var out, errb bytes.Buffer
	cmd.Stdout = &out
	cmd.Stderr = &errb
	if err := cmd.Run(); err != nil {
		msg := strings.TrimSpace(errb.String())
		if i := strings.IndexByte(msg, '\n'); i >= 0 {
			msg = msg[:i]
		}
		return out.String(), fmt.Errorf("git %s: %w: %s", args[0], err, msg)
	}
	return out.String(), nil
}

func (g gitCmd) line(ctx context.Context, args ...string) (string, error) {
	out, err := g.run(ctx, args...)
	return strings.TrimSpace(out), err
}

func (g gitCmd) with(env ...string) gitCmd {
	g.env = append(append([]string{}, g.env...), env...)
	return g
}
