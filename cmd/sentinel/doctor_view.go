package main

import (
	"fmt"
	"io"
	"os"

	"github.com/sentinelhq/sentinel/sandbox"
)

// sandboxView is doctor's account of what a coder's sandbox shows of the
// person's setup: toolchains read-only, build caches writable for this
// project, credential files hidden.
type sandboxView struct {
	Toolchains []sandbox.Toolchain  `json:"toolchains"`
	Caches     []sandbox.BuildCache `json:"caches"`
	Hidden     []string             `json:"hidden"`
}

func doctorView(project string) sandboxView {
	home, _ := os.UserHomeDir()
	tv := sandbox.DetectToolchains(home, os.Getenv)
	v := sandboxView{Toolchains: tv.Toolchains, Hidden: tv.Secrets}
	if dir, err := sandbox.ProjectCacheDir(project); err == nil {
		v.Caches = sandbox.BuildCacheEnv(dir)
	}
	return v
}

func printView(w io.Writer, v sandboxView) {
	fmt.Fprintln(w, "the coder's sandbox shows (read-only)")
	if len(v.Toolchains) == 0 {
		fmt.Fprintln(w, "  no toolchains under home (system locations and PATH are always shown)")
	}
	for _, t := range v.Toolchains {
		fmt.Fprintf(w, "  %-16s %s  (%s)\n", t.Name, t.Root, t.Via)
	}
	if len(v.Caches) > 0 {
		fmt.Fprintln(w, "build caches (writable, this project's own)")
		for _, c := range v.Caches {
			fmt.Fprintf(w, "  %-22s %s\n", c.Env, c.Dir)
		}
	}
	fmt.Fprintln(w, "hidden from the coder (besides ~/.ssh, ~/.aws, ~/.config/gh and the rest of the credential list)")
	if len(v.Hidden) == 0 {
		fmt.Fprintln(w, "  no further credential files found")
	}
	for _, h := range v.Hidden {
		fmt.Fprintf(w, "  %s\n", h)
	}
}
