package inplace

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sentinelhq/sentinel/cmd/sentinel/internal/e2etest"
	"github.com/sentinelhq/sentinel/internal/journal"
	"github.com/sentinelhq/sentinel/runner"
)

// deniedProgram makes, outside everything a sandbox makes writable (not
// under /tmp), a program denyme (a copy of echo made unique) and a user
// config denying it by name. It returns the program's directory, the config
// home and denyme's bytes.
func deniedProgram(t *testing.T) (dir, cfgHome string, body []byte) {
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
	if body, err = os.ReadFile(echo); err != nil {
		t.Fatal(err)
	}
	body = append(body, fmt.Sprintf("sentinel-denyexec-%d-%s", os.Getpid(), t.Name())...)
	if err := os.WriteFile(filepath.Join(dir, "denyme"), body, 0o755); err != nil {
		t.Fatal(err)
	}
	cfgHome = t.TempDir()
	e2etest.WriteFile(t, filepath.Join(cfgHome, "sentinel", "config.toml"), "[service]\ndenied_executables = [\"denyme\"]\n")
	return dir, cfgHome, body
}

// A coder in a run tries to run a program the person's config denies: by
// path, through PATH, as a copy, through the dynamic loader and as a copy
// its project brought. Every attempt fails, the journal records each
// refusal it saw on the tool lane, and the sandbox event says what is
// refused. With --sandbox off the run does not start.
func TestDeniedExecutablesInARun(t *testing.T) {
	t.Parallel()
	fix, cfgHome, body := deniedProgram(t)
	dir := e2etest.ScratchRepo(t)
	if err := os.WriteFile(filepath.Join(dir, "broughtin"), body, 0o755); err != nil {
		t.Fatal(err)
	}
	env := []string{"XDG_CONFIG_HOME=" + cfgHome, "PATH=" + fix + ":" + os.Getenv("PATH")}
	script := "D=" + filepath.Join(fix, "denyme") + `
"$D" ESCAPED-$((6*7))
denyme ESCAPED-$((6*7))
cp "$D" /tmp/x; /tmp/x ESCAPED-$((6*7))
for l in /lib64/ld-linux*.so* /lib/ld-linux*.so* /lib/*/ld-linux*.so*; do [ -e "$l" ] && "$l" "$D" ESCAPED-$((6*7)); done
./broughtin ESCAPED-$((6*7))
echo tried > tried.txt`
	res := e2etest.Sentinel(t, dir, env, "run", "--plain", "--coder", "command", "run a denied program", "--", "sh", "-c", script)
	if strings.Contains(res.Stdout, "ESCAPED-42") {
		t.Fatalf("ESCAPED: a denied program ran in the run:\n%s\n%s", res.Stdout, res.Stderr)
	}
	if !strings.Contains(res.Stdout, "Permission denied") {
		t.Errorf("the coder was not told its attempts were refused (exit %d):\n%s\n%s", res.Code, res.Stdout, res.Stderr)
	}
	evs := e2etest.RunEvents(t, dir, e2etest.LastRun(t, dir))
	var denied []string
	sawSandbox := false
	for _, ev := range evs {
		switch {
		case ev.Kind == runner.KindExecDenied:
			if ev.Lane != journal.Tool {
				t.Errorf("exec-denied on the %s lane, want tool", ev.Lane)
			}
			denied = append(denied, ev.Text)
		case ev.Kind == runner.KindSandbox && strings.Contains(ev.Text, "refuses to run "+filepath.Join(fix, "denyme")):
			sawSandbox = true
		}
	}
	if !sawSandbox {
		t.Errorf("the sandbox event does not say denyme is refused")
	}
	joined := strings.Join(denied, "\n")
	for _, want := range []string{
		"refused to run " + filepath.Join(fix, "denyme") + ` ("denyme" is in [service] denied_executables)`,
		"refused to run ./broughtin (a copy of " + filepath.Join(fix, "denyme"),
	} {
		if !strings.Contains(joined, want) {
			t.Errorf("the journal lacks %q; exec-denied events:\n%s", want, joined)
		}
	}

	off := e2etest.Sentinel(t, dir, env, "run", "--plain", "--sandbox", "off", "--coder", "command", "x", "--", "sh", "-c", "echo STARTED")
	if off.Code == 0 || strings.Contains(off.Stdout, "STARTED") ||
		!strings.Contains(off.Stderr, "denied_executables cannot be enforced with --sandbox off") {
		t.Errorf("--sandbox off with a deny list: exit %d\n%s\n%s", off.Code, off.Stdout, off.Stderr)
	}
}
