package runner

import (
	"fmt"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/sentinelhq/sentinel/internal/helperbin"
	"github.com/sentinelhq/sentinel/runner/agents"
	"github.com/sentinelhq/sentinel/runner/coder"
)

// Which program `sentinel exec` runs, and how: a known agent gets the same
// adapter as `sentinel run --coder <agent>` (its hooks, its per-run state,
// Sentinel's flags before the person's own arguments); any other program
// runs as the command coder, with the sandbox as its only gate.

// newInPlaceAdapter is the adapter for `sentinel exec -- argv...`: the
// agent argv starts (runner/agents.Of) builds its own, any other program
// runs as the command coder.
func newInPlaceAdapter(argv []string) (Adapter, error) {
	if len(argv) == 0 || argv[0] == "" {
		return nil, CoderNameError{"no program: sentinel exec [flags] -- PROGRAM [ARG...]"}
	}
	prog, err := exec.LookPath(argv[0])
	if err != nil {
		return nil, fmt.Errorf("program %q is not installed or not on PATH (check the program after --)", argv[0])
	}
	launch := append([]string{prog}, argv[1:]...)
	agent, at := agents.Of(argv)
	if agent == nil {
		return &commandAdapter{argv: launch}, nil
	}
	if agent.InPlace == nil {
		return &commandAdapter{argv: launch, program: agent.Name}, nil
	}
	helper, err := helperbin.Path()
	if err != nil {
		return nil, err
	}
	return agent.InPlace(coder.InPlaceArgs{Launch: launch, At: at, Helper: helper})
}

// inPlaceFirstLine is an exec run's first line: what runs where, and for a
// program without hooks that the sandbox is its only gate.
func inPlaceFirstLine(id string, a Adapter, root string) string {
	if ag := agents.Lookup(a.Name()); ag != nil && agents.Hooked(ag) {
		gate := ag.InPlaceGate
		if gate == "" {
			gate = "its approval hooks as in sentinel run"
		}
		return fmt.Sprintf("exec %s: %s in place in %s, with %s", id, a.Name(), root, gate)
	}
	c, ok := a.(*commandAdapter)
	if !ok {
		return fmt.Sprintf("exec %s: %s in place in %s, with its approval hooks as in sentinel run", id, a.Name(), root)
	}
	prog := filepath.Base(c.argv[0])
	line := fmt.Sprintf("exec %s: %s in place in %s", id, prog, root)
	if c.program != "" {
		return line + fmt.Sprintf(" — sandbox-only: Sentinel knows %s but has no approval hooks for it in place, so nothing it runs is asked about; the sandbox is its only gate", c.program)
	}
	return line + fmt.Sprintf(" — sandbox-only: %s is not a known agent (%s), so nothing it runs is asked about; the sandbox is its only gate", prog, strings.Join(agents.Names(agents.Hooked), ", "))
}
