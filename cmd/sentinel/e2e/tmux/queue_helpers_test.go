package tmux

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/sentinelhq/sentinel/cmd/sentinel/internal/e2etest"
)

// userService is a `sentinel service` a test started in its own runtime,
// state and config dirs; env reaches it (pass it to every sentinel).
type userService struct {
	env  []string
	rt   string // XDG_RUNTIME_DIR
	cfg  string // XDG_CONFIG_HOME
	logs *e2etest.SyncBuffer
}

// startUserService starts the service with configTOML as the user's
// config and waits until it answers; it is stopped and waited for at the
// test's end, before its dirs are removed.
func startUserService(t *testing.T, configTOML string) *userService {
	t.Helper()
	base, err := os.MkdirTemp("", "sq") // short: a socket path has a limit
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(base) })
	s := &userService{rt: filepath.Join(base, "rt"), cfg: filepath.Join(base, "cfg"), logs: &e2etest.SyncBuffer{}}
	if err := os.Mkdir(s.rt, 0o700); err != nil {
		t.Fatal(err)
	}
	if configTOML != "" {
		e2etest.WriteFile(t, filepath.Join(s.cfg, "sentinel", "config.toml"), configTOML)
	}
	s.env = []string{"XDG_RUNTIME_DIR=" + s.rt, "XDG_CONFIG_HOME=" + s.cfg, "XDG_STATE_HOME=" + filepath.Join(base, "state"), "NO_COLOR=1"}
	cmd := exec.Command(e2etest.Bin, "service")
	cmd.Env = append(os.Environ(), s.env...)
	cmd.Stdout, cmd.Stderr = s.logs, s.logs
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = cmd.Process.Signal(syscall.SIGTERM)
		_ = cmd.Wait()
	})
	s.waitFor(t, "the service to answer", func() bool {
		return e2etest.Sentinel(t, "", s.env, "queue", "--json").Code == 0
	})
	return s
}

// waitFor polls cond until it holds (the test's own deadline bounds it).
func (s *userService) waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	e2etest.Eventually(t, what, cond, func() string { return "the service's log:\n" + s.logs.String() })
}

type queueEntryJSON struct {
	ID      string `json:"id"`
	Run     string `json:"run"`
	Project string `json:"project"`
	Kind    string `json:"kind"`
	Summary string `json:"summary"`
	Policy  struct {
		Rule   string `json:"rule"`
		Reason string `json:"reason"`
	} `json:"policy"`
	WaitingSince time.Time `json:"waiting_since"`
}

func (s *userService) pending(t *testing.T) []queueEntryJSON {
	t.Helper()
	r := e2etest.Sentinel(t, "", s.env, "queue", "--json")
	if r.Code != 0 {
		t.Fatalf("sentinel queue --json: %d %s", r.Code, r.Stderr)
	}
	var out []queueEntryJSON
	if err := json.Unmarshal([]byte(r.Stdout), &out); err != nil {
		t.Fatalf("sentinel queue --json is not a JSON array: %v\n%s", err, r.Stdout)
	}
	return out
}

// bgRun is a sentinel run started in the background with no terminal.
type bgRun struct {
	cmd  *exec.Cmd
	out  *e2etest.SyncBuffer
	done chan struct{}
	code int
}

func startBgRun(t *testing.T, dir string, env []string, args ...string) *bgRun {
	t.Helper()
	b := &bgRun{out: &e2etest.SyncBuffer{}, done: make(chan struct{})}
	b.cmd = exec.Command(e2etest.Bin, args...)
	b.cmd.Dir = dir
	b.cmd.Env = append(os.Environ(), env...)
	b.cmd.Stdout, b.cmd.Stderr = b.out, b.out
	if err := b.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() {
		defer close(b.done)
		err := b.cmd.Wait()
		if ee, ok := err.(*exec.ExitError); ok {
			b.code = ee.ExitCode()
		}
	}()
	t.Cleanup(func() {
		select {
		case <-b.done:
		default:
			_ = b.cmd.Process.Signal(syscall.SIGTERM)
			<-b.done
		}
	})
	return b
}

func (b *bgRun) wait(t *testing.T) string {
	t.Helper()
	select {
	case <-b.done:
	case <-time.After(e2etest.HangBound):
		t.Fatalf("the run did not end:\n%s", b.out.String())
	}
	return b.out.String()
}

// hookAsk is a --coder command script that asks the run's broker, as
// Claude Code's hook would, for a shell command the policy asks a person
// about, and prints the answer.
func hookAsk(command string) string {
	payload := fmt.Sprintf(`{"hook_event_name":"PreToolUse","tool_name":"Bash","tool_use_id":"call-1","tool_input":{"command":%q}}`, command)
	return fmt.Sprintf("printf '%%s' '%s' | %s hook claude; echo HOOK-EXIT=$?", payload, e2etest.Bin)
}

func projectOf(entries []queueEntryJSON, dir string) (queueEntryJSON, bool) {
	real, _ := filepath.EvalSymlinks(dir)
	for _, e := range entries {
		if e.Project == dir || e.Project == real {
			return e, true
		}
	}
	return queueEntryJSON{}, false
}

func containsAll(s string, subs ...string) bool {
	for _, x := range subs {
		if !strings.Contains(s, x) {
			return false
		}
	}
	return true
}
