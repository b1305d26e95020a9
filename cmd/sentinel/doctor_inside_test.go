package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sentinelhq/sentinel/cmd/sentinel/internal/e2etest"
)

// doctor says what the coder will see, from a probe run inside the
// sandbox: a program on the person's PATH whose directory the project's
// [sandbox] hidden covers is named as missing inside, and found once it
// is not hidden.
func TestDoctorProbesInsideTheSandbox(t *testing.T) {
	tools := filepath.Join(t.TempDir(), "bin")
	e2etest.WriteFile(t, filepath.Join(tools, "deno"), "#!/bin/sh\necho fake deno\n")
	if err := os.Chmod(filepath.Join(tools, "deno"), 0o755); err != nil {
		t.Fatal(err)
	}
	env := []string{"XDG_STATE_HOME=" + t.TempDir(), "PATH=" + tools + ":" + os.Getenv("PATH")}
	for _, hidden := range []bool{true, false} {
		ws := t.TempDir()
		if hidden {
			e2etest.WriteFile(t, filepath.Join(ws, ".sentinel", "config.toml"), "[sandbox]\nhidden = [\""+tools+"\"]\n")
		}
		res := e2etest.Sentinel(t, ws, env, "doctor")
		_, inside, ok := strings.Cut(res.Stdout, "inside the coder's sandbox (a probe run there)\n")
		if !ok {
			t.Fatalf("hidden=%v: doctor has no probe section (exit %d):\n%s\n%s", hidden, res.Code, res.Stdout, res.Stderr)
		}
		missing := strings.Contains(inside, "MISSING  deno (on your PATH at "+filepath.Join(tools, "deno")+", not found inside")
		found := strings.Contains(inside, "ok       deno "+filepath.Join(tools, "deno"))
		if hidden && (!missing || found) || !hidden && (missing || !found) {
			t.Errorf("hidden=%v: the probe section says:\n%s", hidden, inside)
		}
	}
}
