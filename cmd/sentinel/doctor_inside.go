package main

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"time"

	"github.com/sentinelhq/sentinel/sandbox"
)

// probeTools are the programs doctor looks for inside the sandbox.
var probeTools = []string{"go", "cargo", "rustc", "python3", "python", "pip3", "uv", "node", "npm", "pnpm", "yarn",
	"bun", "deno", "ruby", "gem", "bundle", "java", "mvn", "gradle", "make", "gcc", "git"}

// probeScript prints "tool NAME PATH" for each of its tool arguments
// that resolves, after "--", "root INDEX ok|missing" for each root.
const probeScript = `roots=0
for a in "$@"; do
  if [ "$a" = "--" ]; then roots=1; i=0; continue; fi
  if [ $roots = 0 ]; then p=$(command -v "$a" 2>/dev/null) && echo "tool $a $p"
  else if [ -e "$a" ]; then echo "root $i ok"; else echo "root $i missing"; fi; i=$((i+1)); fi
done`

// insideView is what a probe run inside the coder's sandbox saw: the
// programs that resolve there, the ones that resolve only outside, and
// the toolchain roots that are not there.
type insideView struct {
	Resolves    map[string]string `json:"resolves,omitempty"`     // tool -> path inside
	OutsideOnly map[string]string `json:"outside_only,omitempty"` // tool -> path on your PATH, not found inside
	Missing     []string          `json:"missing_roots,omitempty"`
	Error       string            `json:"error,omitempty"`
}

// probeInside runs the probe in a sandbox made as `sentinel sandbox` makes
// it for project (the person's toolchains, caches and [sandbox] config),
// with the network off, and compares with the person's own PATH.
func probeInside(project string, v sandboxView) insideView {
	var out insideView
	home, _ := os.UserHomeDir()
	p := sandbox.DefaultProfile(project, home)
	p.Net = sandbox.NetNone
	if err := applySandboxConfig(&p, project); err != nil {
		out.Error = err.Error()
		return out
	}
	sbx, err := sandbox.Prepare(p, sandbox.Options{Mode: sandbox.ModeAuto})
	if err != nil {
		out.Error = err.Error()
		return out
	}
	defer sbx.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second) // a hang bound
	defer cancel()
	args := append([]string{"sh", "-c", probeScript, "sh"}, probeTools...)
	args = append(args, "--")
	for _, t := range v.Toolchains {
		args = append(args, t.Root)
	}
	cmd, err := sbx.Command(ctx, project, args...)
	if err != nil {
		out.Error = err.Error()
		return out
	}
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		out.Error = strings.TrimSpace(fmt.Sprintf("%v %s", err, stderr.String()))
		return out
	}
	return readProbe(stdout.String(), v.Toolchains, exec.LookPath)
}

// readProbe reads the probe's output against the toolchains it was given
// and where lookPath finds each tool outside.
func readProbe(s string, tcs []sandbox.Toolchain, lookPath func(string) (string, error)) insideView {
	out := insideView{Resolves: map[string]string{}, OutsideOnly: map[string]string{}}
	sc := bufio.NewScanner(strings.NewReader(s))
	for sc.Scan() {
		f := strings.SplitN(sc.Text(), " ", 3)
		switch {
		case len(f) == 3 && f[0] == "tool":
			out.Resolves[f[1]] = f[2]
		case len(f) == 3 && f[0] == "root" && f[2] == "missing":
			var i int
			if _, err := fmt.Sscan(f[1], &i); err == nil && i < len(tcs) {
				out.Missing = append(out.Missing, tcs[i].Name+" "+tcs[i].Root)
			}
		}
	}
	for _, t := range probeTools {
		if _, in := out.Resolves[t]; in {
			continue
		}
		if p, err := lookPath(t); err == nil {
			out.OutsideOnly[t] = p
		}
	}
	return out
}

func printInside(w io.Writer, v insideView) {
	fmt.Fprintln(w, "inside the coder's sandbox (a probe run there)")
	if v.Error != "" {
		fmt.Fprintf(w, "  the probe could not run: %s\n", v.Error)
		return
	}
	var in []string
	for _, t := range probeTools {
		if p, ok := v.Resolves[t]; ok {
			in = append(in, t+" "+p)
		}
	}
	if len(in) == 0 {
		fmt.Fprintln(w, "  none of the usual toolchains resolves")
	}
	for _, l := range in {
		fmt.Fprintf(w, "  ok       %s\n", l)
	}
	for _, t := range probeTools {
		if p, ok := v.OutsideOnly[t]; ok {
			fmt.Fprintf(w, "  MISSING  %s (on your PATH at %s, not found inside; show its directory with [sandbox] readable)\n", t, p)
		}
	}
	for _, r := range v.Missing {
		fmt.Fprintf(w, "  MISSING  toolchain %s is not there inside\n", r)
	}
}
