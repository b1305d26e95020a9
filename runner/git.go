package runner

import (
	"bytes"
	"context"
	"io"
	"os/exec"
	"strings"

	"github.com/sentinelhq/sentinel/internal/hardgit"
)

// gitEnv is the environment every git call gets (see hardgit.Env): no
// system or global config, no pager, no prompts, and none of the GIT_*
// variables the person's shell might carry.
func gitEnv(extra ...string) []string { return hardgit.Env(extra...) }

// gitCmd runs hardened git (package hardgit: hooks, fsmonitor, pagers,
// external diff, textconv and every filter, diff and merge driver of the
// git dir's config neutralised) with the given environment additions in dir.
// Every git call in this package goes through it.
type gitCmd struct {
	dir   string
	env   []string
	stdin []byte
	// wrap, when set, runs git through another program (an overlay
	// workspace's view, sandbox.View.Wrap).
	wrap func(*exec.Cmd)
	// known, when set, is the driver scan's answer for dir and env (scanned).
	known *[]string
}

func (g gitCmd) hard() hardgit.Git {
	h := hardgit.Git{Dir: g.dir, Env: g.env, Wrap: g.wrap, Known: g.known}
	if g.stdin != nil {
		h.Stdin = bytes.NewReader(g.stdin)
	}
	return h
}

func (g gitCmd) run(ctx context.Context, args ...string) (string, error) {
	return g.hard().Run(ctx, args...)
}

// stream runs git with its output going to w.
func (g gitCmd) stream(ctx context.Context, w io.Writer, args ...string) error {
	h := g.hard()
	h.Stdout = w
	_, err := h.Run(ctx, args...)
	return err
}

// scanned is g with the repository's config scanned for drivers once
// (hardgit.Overrides), for a run of commands on Sentinel's own shadow git
// dir whose config none of them changes: each used to start a second git
// for the same scan. Every command still gets the overrides.
func (g gitCmd) scanned(ctx context.Context) (gitCmd, error) {
	over, err := hardgit.Overrides(ctx, g.dir, g.env)
	if err != nil {
		return g, err
	}
	g.known = &over
	return g, nil
}

// objectsOnly is g without its wrap (an overlay view), for commands that
// read the index and objects of g's git dir and never its work tree.
func (g gitCmd) objectsOnly() gitCmd {
	g.wrap = nil
	return g
}

func (g gitCmd) line(ctx context.Context, args ...string) (string, error) {
	out, err := g.run(ctx, args...)
	return strings.TrimSpace(out), err
}

func (g gitCmd) with(env ...string) gitCmd {
	g.env = append(append([]string{}, g.env...), env...)
	return g
}

func (g gitCmd) input(b []byte) gitCmd {
	g.stdin = b
	return g
}
