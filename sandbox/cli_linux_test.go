package sandbox

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"golang.org/x/sys/unix"

	"github.com/sentinelhq/sentinel/internal/hostbin"
)

// sentinel runs the real binary and returns stdout, stderr and exit status.
func sentinel(t *testing.T, stdin string, args ...string) (string, string, int) {
	t.Helper()
	cmd := exec.Command(helperBin, args...)
	cmd.Stdin = strings.NewReader(stdin)
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

func TestSandboxRunCLI(t *testing.T) {
	exe, _ := os.Executable()
	allowed := serve(t, "fake model")
	other := serve(t, "other host")
	for _, mode := range modes(t) {
		ws := t.TempDir()
		base := []string{"sandbox", "run", "--sandbox", string(mode), "--workspace", ws, "--read", filepath.Dir(exe)}
		tests := []struct {
			name     string
			stdin    string
			args     []string
			wantOut  string
			wantErr  string
			wantCode int
		}{
			{"exit status is propagated", "", []string{"--", "sh", "-c", "exit 7"}, "", "", 7},
			{"stdout and stdin pass through", "from stdin", []string{"--", "sh", "-c", "echo out; cat"}, "out\nfrom stdin", "", 0},
			{"a write lands in the workspace", "", []string{"--", "sh", "-c", "echo hi > made.txt && cat made.txt"}, "hi", "", 0},
			{"an allowed host is reached through the proxy", "", []string{"--allow-host", allowed, "--", exe, probeArg, "fetch", "http://" + allowed + "/"}, "200 fake model", "", 0},
			{"an unknown host is refused without a terminal", "", []string{"--allow-host", allowed, "--", exe, probeArg, "fetch", "http://" + other + "/"}, "403 Sentinel's sandbox proxy refused " + other + ": not in the allowlist (no terminal to ask", "", 0},
			{"no network at all with --net none", "", []string{"--net", "none", "--", exe, probeArg, "fetch", "http://" + allowed + "/"}, "no proxy", "", 1},
			{"a bad mode is a one-line usage error", "", []string{"--sandbox", "bogus", "--", "true"}, "", "--sandbox bogus: unknown; use auto, ns, bwrap or off", 2},
			{"a bad network mode is a usage error", "", []string{"--net", "wifi", "--", "true"}, "", "--net wifi: unknown; use proxy or none", 2},
			{"a missing command is exit 127", "", []string{"--", "no-such-command-xyz"}, "", "no-such-command-xyz: command not found", 127},
			{"a missing workspace names the fix", "", []string{"--workspace", filepath.Join(ws, "nope"), "--", "true"}, "", "is not a directory; create it or pass another --workspace", 1},
		}
		for _, tt := range tests {
			t.Run(string(mode)+"/"+tt.name, func(t *testing.T) {
				out, errOut, code := sentinel(t, tt.stdin, append(base, tt.args...)...)
				if code != tt.wantCode || !strings.Contains(out, tt.wantOut) || !strings.Contains(errOut, tt.wantErr) {
					t.Errorf("exit %d, stdout %q, stderr %q; want exit %d, stdout containing %q, stderr containing %q",
						code, out, errOut, tt.wantCode, tt.wantOut, tt.wantErr)
				}
			})
		}
		if b, err := os.ReadFile(filepath.Join(ws, "made.txt")); err != nil || string(b) != "hi\n" {
			t.Errorf("%s: the workspace write did not reach disk: %q %v", mode, b, err)
		}
	}
}

func TestDoctorJSON(t *testing.T) {
	out, errOut, code := sentinel(t, "", "doctor", "--json")
	var rep struct {
		Sandbox     []Check `json:"sandbox"`
		Modes       []Mode  `json:"modes"`
		Enforceable bool    `json:"enforceable"`
		Agents      []Check `json:"agents"`
	}
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatalf("doctor --json printed %q (%v); stderr %q", out, err, errOut)
	}
	names := map[string]bool{}
	for _, c := range append(rep.Sandbox, rep.Agents...) {
		names[strings.Fields(c.Name)[0]] = true
		if !c.OK && c.Fix == "" {
			t.Errorf("%s is missing but has no fix", c.Name)
		}
	}
	for _, want := range []string{"landlock", "seccomp", "user", "sandbox", "pty", "claude", "codex", "gemini", "opencode", "crush"} {
		if !names[want] {
			t.Errorf("doctor does not report %s: %v", want, names)
		}
	}
	// This machine runs the escape suite, so it must be able to enforce.
	if !rep.Enforceable || code != 0 {
		t.Errorf("doctor says this machine cannot enforce (exit %d): %s", code, out)
	}
}

func TestPrepareRefusesWhatItCannotEnforce(t *testing.T) {
	ws := t.TempDir()
	t.Setenv("PATH", t.TempDir())                            // no bwrap anywhere
	t.Cleanup(hostbin.SetDirsForTest([]string{t.TempDir()})) // not even in the system dirs
	_, err := Prepare(Profile{Workspace: ws}, Options{Mode: ModeBwrap, Helper: helperBin})
	if err == nil || !strings.Contains(err.Error(), "bubblewrap (bwrap) is not installed") || !strings.Contains(err.Error(), "--sandbox off") {
		t.Errorf("bwrap missing: got %v, want a refusal naming bubblewrap and --sandbox off", err)
	}
	_, err = Prepare(Profile{Workspace: ws, Net: NetHost}, Options{Mode: ModeNS, Helper: helperBin})
	if err == nil || !strings.Contains(err.Error(), "only possible with --sandbox off") {
		t.Errorf("host network in a sandbox: got %v, want a refusal", err)
	}
}

// The environment inside is rebuilt: Sentinel's own variables and anything
// unnamed stay out; an agent's API key passes only with --agent.
func TestEnvironmentIsRebuilt(t *testing.T) {
	t.Setenv("SENTINEL_SUPERVISOR_KEY", "sentinel-secret")
	t.Setenv("AWS_SECRET_ACCESS_KEY", "aws-secret")
	t.Setenv("ANTHROPIC_API_KEY", "agent-key")
	ws := t.TempDir()
	show := []string{"--", "sh", "-c", `echo "sup=$SENTINEL_SUPERVISOR_KEY aws=$AWS_SECRET_ACCESS_KEY key=$ANTHROPIC_API_KEY tmp=$TMPDIR"`}
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"no agent", nil, "sup= aws= key= tmp=/tmp"},
		{"--agent claude", []string{"--agent", "claude"}, "sup= aws= key=agent-key tmp=/tmp"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			args := append(append([]string{"sandbox", "run", "--workspace", ws}, tt.args...), show...)
			out, errOut, code := sentinel(t, "", args...)
			if code != 0 || strings.TrimSpace(out) != tt.want {
				t.Errorf("exit %d, got %q (stderr %q), want %q", code, out, errOut, tt.want)
			}
		})
	}
}

// When `sentinel sandbox run` has exited, nothing it started is left in its
// process group (bwrap's own pid-1 reaper was: a zombie handed to init
// after every command). This test process is a child subreaper while it
// runs, so whatever is orphaned comes to it and stays visible until reaped.
func TestSandboxRunLeavesNoProcessBehind(t *testing.T) {
	if err := unix.Prctl(unix.PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0); err != nil {
		t.Skipf("cannot become a subreaper: %v", err)
	}
	defer unix.Prctl(unix.PR_SET_CHILD_SUBREAPER, 0, 0, 0, 0)
	for _, mode := range modes(t) {
		for _, net := range []string{"proxy", "none"} {
			cmd := exec.Command(helperBin, "sandbox", "run", "--sandbox", string(mode), "--net", net, "--workspace", t.TempDir(), "--", "true")
			cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
			if out, err := cmd.CombinedOutput(); err != nil {
				t.Fatalf("%s/%s: %v %s", mode, net, err, out)
			}
			if left := groupMembers(cmd.Process.Pid); len(left) > 0 {
				t.Errorf("%s/%s: left behind in the process group: %v", mode, net, left)
			}
		}
	}
}

// groupMembers lists (and reaps, when they are this process's zombies) the
// processes of process group pgid.
func groupMembers(pgid int) []string {
	var out []string
	ents, _ := os.ReadDir("/proc")
	for _, e := range ents {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		b, err := os.ReadFile(filepath.Join("/proc", e.Name(), "stat"))
		if err != nil {
			continue
		}
		// pid (comm) state ppid pgrp …; comm may hold spaces.
		i := bytes.LastIndexByte(b, ')')
		f := strings.Fields(string(b[i+1:]))
		if len(f) < 3 || f[2] != strconv.Itoa(pgid) {
			continue
		}
		out = append(out, string(b[:i+1])+" "+f[0])
		if f[1] == strconv.Itoa(os.Getpid()) {
			var ws unix.WaitStatus
			unix.Wait4(pid, &ws, 0, nil)
		}
	}
	return out
}
