package sandbox

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// escapedMark is what a denied program prints when it runs; the scripts
// spell it "ESCAPED-$((6*7))" so no error message quoting them contains it.
const escapedMark = "ESCAPED-42"

// deniedFixture is a directory outside everything a sandbox makes writable
// (not under /tmp, which is private and writable inside), holding denyme
// (a copy of echo made unique, so nothing else on the machine is the same
// file) and allowed (a plain copy of echo), and a user config denying
// "denyme". It returns the directory, the config home and denyme's bytes.
func deniedFixture(t *testing.T) (dir, cfgHome string, denyme []byte) {
	t.Helper()
	dir, err := os.MkdirTemp("/var/tmp", "sentinel-denyexec-")
	if err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("a fixture outside /tmp is needed: %v", err)
		}
		t.Skipf("no fixture directory outside /tmp: %v", err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	os.Chmod(dir, 0o755)
	echo, err := exec.LookPath("echo")
	if err != nil {
		t.Fatal(err)
	}
	body, err := os.ReadFile(echo)
	if err != nil {
		t.Fatal(err)
	}
	denyme = append(append([]byte{}, body...), fmt.Sprintf("sentinel-denyexec-%d-%s", os.Getpid(), t.Name())...)
	if err := os.WriteFile(filepath.Join(dir, "denyme"), denyme, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "allowed"), body, 0o755); err != nil {
		t.Fatal(err)
	}
	cfgHome = t.TempDir()
	mustWrite(t, filepath.Join(cfgHome, "sentinel", "config.toml"), "[service]\ndenied_executables = [\"denyme\"]\n")
	return dir, cfgHome, denyme
}

// deniedEscapes are ways to run a denied program; each must fail. D is
// its absolute path, and the fixture's directory is first on PATH.
func deniedEscapes() map[string]string {
	m := map[string]string{
		"by absolute path":                  `"$D" ESCAPED-$((6*7))`,
		"through PATH":                      `denyme ESCAPED-$((6*7))`,
		"a copy under another name in /tmp": `cp "$D" /tmp/x; chmod +x /tmp/x; /tmp/x ESCAPED-$((6*7))`,
		"a copy in the workspace":           `cp "$D" ./x; chmod +x ./x; ./x ESCAPED-$((6*7))`,
		"read into a new file":              `cat "$D" > /tmp/y; chmod +x /tmp/y; /tmp/y ESCAPED-$((6*7))`,
		"a symlink to it":                   `ln -s "$D" /tmp/l; /tmp/l ESCAPED-$((6*7))`,
		"a hard link to it":                 `ln "$D" /tmp/h; /tmp/h ESCAPED-$((6*7))`,
		"sh -c exec":                        `sh -c 'exec denyme ESCAPED-$((6*7))'`,
		"env":                               `env denyme ESCAPED-$((6*7))`,
		"through /proc/self/root":           `/proc/self/root"$D" ESCAPED-$((6*7))`,
		"by the dynamic loader":             `for l in /lib64/ld-linux*.so* /lib/ld-linux*.so* /lib/*/ld-linux*.so*; do [ -e "$l" ] && "$l" "$D" ESCAPED-$((6*7)); done`,
		"under another argv[0]":             `perl -e 'exec {$ARGV[0]} "other", "ESCAPED-" . 6*7' "$D" 2>/dev/null || python3 -c 'import os,sys; os.execv(sys.argv[1], ["other", "ESCAPED-" + str(6*7)])' "$D"`,
		"python's os.execv":                 `python3 -c 'import os,sys; os.execv(sys.argv[1], ["x", "ESCAPED-" + str(6*7)])' "$D"`,
		"a copy the project brought":        `./broughtin ESCAPED-$((6*7))`,
	}
	return m
}

// TestDeniedExecutablesCLI attacks [service] denied_executables through the
// real binary's `sandbox run`, under each backend: every way of running the
// denied program fails, the refusal is reported, and the program beside it
// still runs.
func TestDeniedExecutablesCLI(t *testing.T) {
	fix, cfgHome, denyme := deniedFixture(t)
	for _, mode := range modes(t) {
		for name, script := range deniedEscapes() {
			t.Run(string(mode)+"/"+name, func(t *testing.T) {
				ws := t.TempDir()
				if err := os.WriteFile(filepath.Join(ws, "broughtin"), denyme, 0o755); err != nil {
					t.Fatal(err)
				}
				out, errOut, code := sentinelEnv(t, []string{"XDG_CONFIG_HOME=" + cfgHome, "PATH=" + fix + ":" + os.Getenv("PATH")},
					"sandbox", "run", "--sandbox", string(mode), "--net", "none", "--workspace", ws, "--",
					"sh", "-c", "D="+filepath.Join(fix, "denyme")+"; "+script)
				if strings.Contains(out, escapedMark) {
					t.Fatalf("ESCAPED: the denied program ran (exit %d)\nstdout: %s\nstderr: %s", code, out, errOut)
				}
				t.Logf("exit %d: %s", code, strings.TrimSpace(errOut))
			})
		}
		t.Run(string(mode)+"/the refusal is reported and the rest runs", func(t *testing.T) {
			ws := t.TempDir()
			out, errOut, _ := sentinelEnv(t, []string{"XDG_CONFIG_HOME=" + cfgHome, "PATH=" + fix + ":" + os.Getenv("PATH")},
				"sandbox", "run", "--sandbox", string(mode), "--net", "none", "--workspace", ws, "--",
				"sh", "-c", "denyme x; allowed STILL-RUNS; ls "+fix)
			if !strings.Contains(out, "STILL-RUNS") || !strings.Contains(out, "denyme") {
				t.Errorf("the program beside the denied one, or the listing, was refused too:\n%s\n%s", out, errOut)
			}
			want := "sentinel: refused to run " + filepath.Join(fix, "denyme") + ` ("denyme" is in [service] denied_executables)`
			if !strings.Contains(errOut, want) {
				t.Errorf("stderr lacks %q:\n%s", want, errOut)
			}
		})
	}
}

// TestDeniedExecutablesFailClosed: where the list cannot be enforced the
// command does not start, with one line naming the setting and the fix.
func TestDeniedExecutablesFailClosed(t *testing.T) {
	fix, cfgHome, _ := deniedFixture(t)
	env := []string{"XDG_CONFIG_HOME=" + cfgHome, "PATH=" + fix + ":" + os.Getenv("PATH")}
	ws := t.TempDir()
	_, errOut, code := sentinelEnv(t, env, "sandbox", "run", "--sandbox", "off", "--workspace", ws, "--", "sh", "-c", "echo STARTED")
	if code == 0 || !strings.Contains(errOut, "denied_executables cannot be enforced with --sandbox off") {
		t.Errorf("--sandbox off with a deny list: exit %d, %q", code, errOut)
	}
	// A denied program the coder could rewrite cannot be protected.
	inWS := filepath.Join(ws, "tool")
	if err := os.WriteFile(inWS, []byte("#!/bin/sh\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	mustWrite(t, filepath.Join(cfgHome, "sentinel", "config.toml"), "[service]\ndenied_executables = [\""+inWS+"\"]\n")
	_, errOut, code = sentinelEnv(t, env, "sandbox", "run", "--sandbox", string(modes(t)[0]), "--workspace", ws, "--", "true")
	if code == 0 || !strings.Contains(errOut, "which the coder can write") {
		t.Errorf("a denied program in the workspace: exit %d, %q", code, errOut)
	}
}

// sentinelEnv runs the real binary with env added and stdin empty.
func sentinelEnv(t *testing.T, env []string, args ...string) (string, string, int) {
	t.Helper()
	cmd := exec.Command(helperBin, args...)
	cmd.Env = append(append(os.Environ(), "XDG_STATE_HOME="+t.TempDir()), env...)
	cmd.Stdin = strings.NewReader("")
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return out.String(), errb.String(), code
}
