package supervisor

import (
	"bytes"
	"context"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sentinelhq/sentinel/cmd/sentinel/internal/e2etest"
)

// A coder pointed at a dead model endpoint, or without a key, is refused before the run
// starts: one line naming the coder, the endpoint and the fix, exit 1, no
// run left for `sentinel runs` (no recovery entry), and nothing of the
// coder run on the host (the claude and codex here are stand-ins that
// leave a mark if started).
func TestRunRefusesACoderWhoseEndpointIsDead(t *testing.T) {
	t.Parallel()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	dead := "http://" + l.Addr().String() + "/v1"
	l.Close()
	for _, tc := range []struct{ name, coder, baseVar, keyVar, want string }{
		{"codex", "codex", "OPENAI_BASE_URL", "OPENAI_API_KEY",
			"coder codex: its model endpoint " + dead + " is not reachable: connection refused (start it, or point OPENAI_BASE_URL at one that answers)"},
		{"claude", "claude", "ANTHROPIC_BASE_URL", "ANTHROPIC_API_KEY",
			"coder claude: its model endpoint " + dead + " is not reachable: connection refused (start it, or point ANTHROPIC_BASE_URL at one that answers)"},
		{"codex without a key", "codex", "OPENAI_BASE_URL", "",
			"coder codex: no API key and no sign-in (set OPENAI_API_KEY, or sign in once with: codex login)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := e2etest.ScratchRepo(t)
			home := t.TempDir()
			bin := filepath.Join(home, "bin")
			marker := filepath.Join(home, "coder-ran")
			e2etest.WriteFile(t, filepath.Join(bin, tc.coder), "#!/bin/sh\ntouch "+marker+"\n")
			if err := os.Chmod(filepath.Join(bin, tc.coder), 0o755); err != nil {
				t.Fatal(err)
			}
			env := []string{"HOME=" + home, "PATH=" + bin + string(os.PathListSeparator) + os.Getenv("PATH"),
				"CODEX_HOME=", "CLAUDE_CONFIG_DIR=", "OPENAI_BASE_URL=", "ANTHROPIC_BASE_URL=", "OPENAI_API_KEY=",
				"ANTHROPIC_API_KEY=", "ANTHROPIC_AUTH_TOKEN=", "CLAUDE_CODE_OAUTH_TOKEN=", tc.baseVar + "=" + dead}
			if tc.keyVar != "" {
				env = append(env, tc.keyVar+"=sk-test-fake")
			}
			res := runBounded(t, dir, env, "run", "--plain", "--coder", tc.coder, "write a.txt")
			// The error is one line, the last; before it only the preflight's
			// own progress ("sentinel: preflight: … checking …"), so a slow
			// check is never silent.
			lines := strings.Split(strings.TrimSpace(res.Stderr), "\n")
			progressOnly := true
			for _, l := range lines[:len(lines)-1] {
				progressOnly = progressOnly && strings.HasPrefix(l, "sentinel: preflight: ")
			}
			if res.Code != 1 || lines[len(lines)-1] != "sentinel: "+tc.want || !progressOnly {
				t.Fatalf("exit %d, want 1 and the one line %q\nstderr: %s\nstdout: %s", res.Code, tc.want, res.Stderr, res.Stdout)
			}
			if runs := runBounded(t, dir, env, "runs", "--json"); runs.Code != 0 || strings.TrimSpace(runs.Stdout) != "[]" {
				t.Fatalf("sentinel runs after a run that could not start: exit %d\n%s%s", runs.Code, runs.Stdout, runs.Stderr)
			}
			if _, err := os.Stat(marker); err == nil {
				t.Fatalf("the preflight ran %s on the host", tc.coder)
			}
		})
	}
}

// runBounded is sentinel with a deadline that only bounds a hang.
func runBounded(t *testing.T, dir string, env []string, args ...string) e2etest.Result {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), e2etest.HangBound)
	defer cancel()
	cmd := exec.CommandContext(ctx, e2etest.Bin, args...)
	cmd.Dir = dir
	cmd.Env = append(append(os.Environ(), "XDG_CONFIG_HOME="+t.TempDir(), "NO_COLOR=1"), env...)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	if ctx.Err() != nil {
		t.Fatalf("sentinel %v did not finish within the hang bound", args)
	}
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return e2etest.Result{Code: code, Stdout: out.String(), Stderr: errb.String()}
}
