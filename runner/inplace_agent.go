package runner

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/sentinelhq/sentinel/internal/helperbin"
	"github.com/sentinelhq/sentinel/runner/claude"
	"github.com/sentinelhq/sentinel/runner/codex"
	"github.com/sentinelhq/sentinel/runner/geminicli"
	"github.com/sentinelhq/sentinel/runner/opencode"
)

// Which program `sentinel exec` runs, and how: a known agent gets the same
// adapter as `sentinel run --coder <agent>` (its hooks, its per-run state,
// Sentinel's flags before the person's own arguments); any other program
// runs as the command coder, with the sandbox as its only gate.

// KnownAgents are the agents `sentinel exec` recognises by program, in the
// order messages name them.
var KnownAgents = []string{"claude", "codex", "gemini", "opencode"}

// agentPackages are the npm packages the node-hosted agents ship in: a
// program that resolves into one of them is that agent, whatever its link
// is called.
var agentPackages = map[string]string{
	"/@anthropic-ai/claude-code/": "claude",
	"/@openai/codex/":             "codex",
	"/@google/gemini-cli/":        "gemini",
	"/opencode-ai/":               "opencode",
}

// scriptHosts run a script named by their first non-flag argument.
var scriptHosts = map[string]bool{"node": true, "nodejs": true, "bun": true, "deno": true}

// AgentOf says which known agent argv starts ("" for any other program)
// and where its own arguments begin: by the program's base name, by the
// package its path resolves into, or through a script host (node
// .../cli.js). It reads only the file system's links, never the program.
func AgentOf(argv []string) (agent string, argsAt int) {
	if len(argv) == 0 {
		return "", 0
	}
	if a := agentOfPath(argv[0]); a != "" {
		return a, 1
	}
	if scriptHosts[strings.TrimSuffix(filepath.Base(argv[0]), ".exe")] {
		for i := 1; i < len(argv); i++ {
			if strings.HasPrefix(argv[i], "-") {
				continue
			}
			if a := agentOfPath(argv[i]); a != "" {
				return a, i + 1
			}
			break
		}
	}
	return "", 1
}

// agentOfPath is the agent a program path names or resolves into.
func agentOfPath(prog string) string {
	base := filepath.Base(prog)
	for _, a := range KnownAgents {
		if base == a {
			return a
		}
	}
	p := prog
	if !strings.Contains(p, "/") {
		lp, err := exec.LookPath(p)
		if err != nil {
			return ""
		}
		p = lp
	}
	if r, err := filepath.EvalSymlinks(p); err == nil {
		p = r
	}
	for pkg, a := range agentPackages {
		if strings.Contains(p, pkg) {
			return a
		}
	}
	return ""
}

// newInPlaceAdapter is the adapter for `sentinel exec -- argv...`.
func newInPlaceAdapter(argv []string) (Adapter, error) {
	if len(argv) == 0 || argv[0] == "" {
		return nil, CoderNameError{"no program: sentinel exec [flags] -- PROGRAM [ARG...]"}
	}
	prog, err := exec.LookPath(argv[0])
	if err != nil {
		return nil, fmt.Errorf("program %q is not installed or not on PATH (check the program after --)", argv[0])
	}
	launch := append([]string{prog}, argv[1:]...)
	agent, at := AgentOf(argv)
	switch agent {
	case "claude":
		exe, err := os.Executable()
		if err != nil {
			return nil, fmt.Errorf("find the sentinel binary: %w", err)
		}
		return claude.New(claude.Options{Mode: claude.Interactive, Sentinel: exe,
			Binary: launch[at-1], Launch: launch[:at], Args: launch[at:]}), nil
	case "codex":
		// Its hooks start sentinel-helper when it sits beside this binary,
		// as Claude Code's do in sentinel run.
		exe, err := helperbin.Path()
		if err != nil {
			return nil, err
		}
		return codex.New(codex.Options{Mode: codex.Interactive, Provider: codex.ProviderFromEnv(), Sentinel: exe,
			Binary: launch[at-1], Launch: launch[:at], Args: launch[at:]}), nil
	case "gemini":
		// Its hooks start sentinel-helper when it sits beside this binary.
		helper, err := helperbin.Path()
		if err != nil {
			return nil, err
		}
		return geminicli.New(geminicli.Options{Launch: launch[:at], Args: launch[at:], Helper: helper}), nil
	case "opencode":
		// Sentinel's plugin starts sentinel-helper for each tool call
		// when it sits beside this binary (the sentinel binary otherwise).
		hook, err := helperbin.Path()
		if err != nil {
			return nil, err
		}
		return opencode.New(opencode.Options{Sentinel: hook, Launch: launch[:at], Args: launch[at:]}), nil
	}
	return &commandAdapter{argv: launch, program: agent}, nil
}

// inPlaceFirstLine is an exec run's first line: what runs where, and for a
// program without hooks that the sandbox is its only gate.
func inPlaceFirstLine(id string, a Adapter, root string) string {
	if _, ok := a.(*opencode.Adapter); ok {
		return fmt.Sprintf("exec %s: opencode in place in %s, with Sentinel's plugin as its approval hook: every tool call is decided as in sentinel run (your and the project's own opencode plugins are not loaded)", id, root)
	}
	c, ok := a.(*commandAdapter)
	if !ok {
		return fmt.Sprintf("exec %s: %s in place in %s, with its approval hooks as in sentinel run", id, a.Name(), root)
	}
	prog := filepath.Base(c.argv[0])
	line := fmt.Sprintf("exec %s: %s in place in %s", id, prog, root)
	if c.program != "" {
		return line + fmt.Sprintf(" — sandbox-only: %s's approvals go through its ACP protocol in sentinel run, which an interactive session does not speak, so nothing it runs is asked about here (use sentinel run --coder %s for per-action approval)", c.program, c.program)
	}
	return line + fmt.Sprintf(" — sandbox-only: %s is not a known agent (%s), so nothing it runs is asked about; the sandbox is its only gate", prog, strings.Join(KnownAgents, ", "))
}
