//go:build linux

package mcpserver

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fsnotify/fsnotify"
)

// A git dir a command makes is quarantined while the command still runs,
// not only after it: the person's shell prompt or editor runs git in their
// checkout all the time, and a .git made in src/ with core.fsmonitor ran
// its program on the host at the person's next `git status` there, for as
// long as the command lasted (up to exec_timeout). The command makes
// src/.git by hand (a repository by name, then one by content in a
// directory it makes), then waits, with a bound, for each to disappear.
func TestExecQuarantinesAGitDirWhileTheCommandRuns(t *testing.T) {
	t.Run("watched", func(t *testing.T) { quarantinedWhileRunning(t) })
	// The command can fill the person's inotify table from its sandbox
	// (it is charged to the same user): what cannot be watched is walked
	// on a beat instead.
	t.Run("inotify table full", func(t *testing.T) {
		old := liveAdd
		liveAdd = func(*fsnotify.Watcher, string) error { return errors.New("no space left on device") }
		t.Cleanup(func() { liveAdd = old })
		quarantinedWhileRunning(t)
	})
}

func quarantinedWhileRunning(t *testing.T) {
	bin := helper(t)
	f := newFixture(t)
	app := f.rw
	gitInit(t, app)
	if err := os.MkdirAll(filepath.Join(app, "src"), 0o755); err != nil {
		t.Fatal(err)
	}
	cfg := mustConfig(t, `exec_mode = "unrestricted"
[[paths]]
path = "`+app+`"
access = "rw"
[limits]
exec_timeout = "300s"
`)
	cs, _ := stdioSession(t, cfg, Options{Helper: bin})
	// gone waits (bounded: a hang, not a timing) until $1 is no more.
	script := `gone() { i=0; while [ -e "$1" ]; do i=$((i+1)); [ $i -gt 600 ] && { echo "STILL $1"; return; }; sleep 0.1; done; echo "GONE $1"; }
mkdir -p src/.git/objects src/.git/refs/heads && echo 'ref: refs/heads/main' > src/.git/HEAD && printf '[core]\n\tfsmonitor = touch planted\n' > src/.git/config
gone src/.git
mkdir -p tools/x/objects tools/x/refs && printf '[core]\n\tbare = false\n\tworktree = ..\n' > tools/x/config && echo 'ref: refs/heads/main' > tools/x/HEAD
gone tools/x/HEAD
echo done`
	got := mustAllow(t, cs, "exec", map[string]any{"command": script})
	if !strings.Contains(got, "done") {
		t.Fatalf("the command did not run: %s", got)
	}
	for _, p := range []string{"src/.git", "tools/x"} {
		if strings.Contains(got, "STILL "+p) || !strings.Contains(got, "GONE "+p) {
			t.Errorf("%s stayed in the person's checkout while the command ran (quarantined only after it):\n%s", p, got)
		}
	}
	if !strings.Contains(got, filepath.Join(app, "src", ".git")) {
		t.Errorf("the answer does not name the quarantined src/.git:\n%s", got)
	}
}
