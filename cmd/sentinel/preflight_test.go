package main

import (
	"bytes"
	"context"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// A coder pointed at a dead model endpoint is refused before the run
// starts: one line naming the coder, the endpoint and the fix, exit 1, no
// run left for `sentinel runs` (no recovery entry), and nothing of the
// coder run on the host (the claude and codex here are stand-ins that
// leave a mark if started).
func TestRunRefusesACoderWhoseEndpointIsDead(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	dead := "http://" + l.Addr().String() + "/v1"
	l.Close()
	for _, tc := range []struct{ coder, baseVar, keyVar string }{
		{"codex", "OPENAI_BASE_URL", "OPENAI_API_KEY"},
		{"claude", "ANTHROPIC_BASE_URL", "ANTHROPIC_API_KEY"},
	} {
		t.Run(tc.coder, func(t *testing.T) {
			dir := scratchRepo(t)
			home := t.TempDir()
			bin := filepath.Join(home, "bin")
			marker := filepath.Join(home, "coder-ran")
			writeFile(t, filepath.Join(bin, tc.coder), "#!/bin/sh\ntouch "+marker+"\n")
			if err := os.Chmod(filepath.Join(bin, tc.coder), 0o755); err != nil {
				t.Fatal(err)
			}
			env := []string{"HOME=" + home, "PATH=" + bin + string(os.PathListSeparator) + os.Getenv("PATH"),
				"CODEX_HOME=", "CLAUDE_CONFIG_DIR=", "OPENAI_BASE_URL=", "ANTHROPIC_BASE_URL=",
				tc.baseVar + "=" + dead, tc.keyVar + "=sk-test-fake"}
			res := runBounded(t, dir, env, "run", "--plain", "--coder", tc.coder, "write a.txt")
			want := "coder " + tc.coder + ": its model endpoint " + dead + " is not reachable: connection refused (start it, or point " + tc.baseVar + " at one that answers)"
			if res.code != 1 || strings.TrimSpace(res.stderr) != "sentinel: "+want && strings.TrimSpace(res.stderr) != want {
				t.Fatalf("exit %d, want 1 and the one line %q\nstderr: %s\nstdout: %s", res.code, want, res.stderr, res.stdout)
			}
			if runs := runBounded(t, dir, env, "runs", "--json"); runs.code != 0 || strings.TrimSpace(runs.stdout) != "[]" {
				t.Fatalf("sentinel runs after a run that could not start: exit %d\n%s%s", runs.code, runs.stdout, runs.stderr)
			}
			if _, err := os.Stat(marker); err == nil {
				t.Fatalf("the preflight ran %s on the host", tc.coder)
			}
		})
	}
}

// runBounded is sentinel with a deadline that only bounds a hang.
func runBounded(t *testing.T, dir string, env []string, args ...string) result {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, sentinelBin, args...)
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
	return result{code, out.String(), errb.String()}
}
