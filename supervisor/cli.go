package supervisor

import (
	"bytes"
	"context"
	"fmt"
	"os/exec"
	"strings"
	"time"

	"github.com/sentinelhq/sentinel/internal/procgroup"
)

// cliCall is one run of a signed-in agent CLI for a model turn.
type cliCall struct {
	name  string   // the backend, for errors
	path  string   // the executable
	args  []string // its arguments
	dir   string   // its working directory (an empty one)
	env   []string // nil: Sentinel's own
	stdin string   // the prompt
}

// run runs the CLI in its own process group, which a cancelled ctx kills
// whole; a child holding the pipes does not outlive the deadline. A
// cancelled ctx is the error, whatever the CLI printed.
func (c cliCall) run(ctx context.Context) (stdout []byte, stderr string, runErr error, err error) {
	cmd := exec.CommandContext(ctx, c.path, c.args...)
	cmd.Dir = c.dir
	cmd.Env = withPersonPATH(c.env) // its #!/usr/bin/env node finds the person's node
	cmd.Stdin = strings.NewReader(c.stdin)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	procgroup.Own(cmd)
	cmd.Cancel = func() error { return procgroup.Kill(cmd.Process.Pid) }
	cmd.WaitDelay = 2 * time.Second
	runErr = cmd.Run()
	if ctx.Err() != nil {
		return nil, "", nil, fmt.Errorf("%s: %w", c.name, ctx.Err())
	}
	return out.Bytes(), errb.String(), runErr, nil
}
