package runner

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/sentinelhq/sentinel/runner/codex"
)

// checkCodexSchema has the app-server write its protocol's schema inside
// the run's sandbox — codex comes from PATH and is never run on the host
// outside it, not even to ask what it speaks — then reads the schema for
// every method and field the session relies on (codex.CheckSchema). It
// runs once per run, before the first start.
func (r *coderStage) checkCodexSchema(a schemaWriter) error {
	if r.codexChecked {
		return nil
	}
	dir := filepath.Join(r.guard.agentStateDir(), "app-server-schema")
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	argv, err := a.SchemaArgv(dir)
	if err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	cmd, err := r.guard.sb.Command(ctx, r.ws.Dir, argv...)
	if err != nil {
		return err
	}
	cmd.Env = append(cmd.Env, a.Env()...)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("coder codex: %s app-server generate-json-schema failed in the sandbox: %v: %s (Sentinel needs a codex with app-server; update it with: npm install -g @openai/codex@latest)",
			argv[0], err, strings.TrimSpace(tailString(out.String(), 2000)))
	}
	if err := codex.CheckSchema(dir); err != nil {
		return fmt.Errorf("coder codex: %w", err)
	}
	r.codexChecked = true
	return nil
}

func tailString(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[len(s)-n:]
}
