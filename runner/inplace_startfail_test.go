package runner

import (
	"context"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/sentinelhq/sentinel/internal/poll"
	"github.com/sentinelhq/sentinel/sandbox"
)

// An in-place run whose start fails after its workspace is open (here the
// sandbox cannot start) stops the watch on the place's git dirs: no
// goroutine of it is left running.
func TestAFailedInPlaceStartStopsTheGitWatch(t *testing.T) {
	t.Setenv("XDG_STATE_HOME", t.TempDir())
	t.Setenv("XDG_CACHE_HOME", t.TempDir())
	p := stopRepo(t)
	_, err := Start(context.Background(), Options{Project: p, Task: "x", InPlace: true,
		Coder:   CoderOptions{Command: []string{"sh", "-c", "true"}},
		Sandbox: SandboxOptions{Mode: sandbox.Mode("no-such-sandbox")}})
	if err == nil {
		t.Fatal("the run started with no sandbox")
	}
	watching := func() string {
		buf := make([]byte, 1<<20)
		for _, g := range strings.Split(string(buf[:runtime.Stack(buf, true)]), "\n\n") {
			if strings.Contains(g, "(*gitGuard).watch") {
				return g
			}
		}
		return ""
	}
	poll.Until(30*time.Second, func() bool { return watching() == "" }) // a bound on a hang only
	if g := watching(); g != "" {
		t.Errorf("the git watch still runs after the start failed (%v):\n%s", err, g)
	}
}
