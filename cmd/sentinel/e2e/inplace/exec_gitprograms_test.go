package inplace

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/sentinelhq/sentinel/cmd/sentinel/internal/e2etest"
)

// Issue 31: a program git runs by itself that the person's git config
// names as a path in the place (core.fsmonitor = tools/fsmon.sh, here in
// the project's config, in a nested repository's, and as a link to the
// real script) is that config's code: a coder that rewrites it, creates it
// where it is missing or re-points its link runs its command on the host
// at the person's next git status. Each must stay as it was, on both
// backends; then git status on the host runs nothing.
func TestExecGitConfigProgramsStayThePersons(t *testing.T) {
	t.Parallel()
	for _, mode := range []string{"bwrap", "ns"} {
		for _, place := range []string{"project", "missing", "nested", "link"} {
			t.Run(mode+"/"+place, func(t *testing.T) {
				t.Parallel() // each case its own project, home and state: eight sequential exec pairs were the package's longest test
				home, marks := t.TempDir(), t.TempDir()
				env := append(os.Environ(), "XDG_CONFIG_HOME="+t.TempDir(), "XDG_STATE_HOME="+t.TempDir(), "XDG_CACHE_HOME="+t.TempDir(), "HOME="+home, "NO_COLOR=1")
				// plant writes the coder's script at rel (a shell
				// command that fails quietly where it may not).
				plant := func(rel string) string {
					return fmt.Sprintf(`mkdir -p %s 2>/dev/null; printf '#!/bin/sh\ntouch %s\n' > %s 2>/dev/null; chmod +x %s 2>/dev/null; `, filepath.Dir(rel), filepath.Join(marks, "coder"), rel, rel)
				}
				dir := e2etest.ScratchRepo(t)
				repo, cmdline := dir, ""
				switch place {
				case "project", "missing":
					e2etest.Git(t, dir, "config", "core.fsmonitor", "tools/fsmon.sh")
					if place == "project" {
						e2etest.WriteFile(t, filepath.Join(dir, "tools", "fsmon.sh"), "#!/bin/sh\nexit 0\n")
						if err := os.Chmod(filepath.Join(dir, "tools", "fsmon.sh"), 0o755); err != nil {
							t.Fatal(err)
						}
					}
					cmdline = plant("tools/fsmon.sh")
				case "nested":
					repo = filepath.Join(dir, "vendor", "lib")
					e2etest.Git(t, dir, "init", "-q", repo)
					e2etest.WriteFile(t, filepath.Join(repo, "a.txt"), "a\n")
					e2etest.Git(t, repo, "add", "a.txt")
					e2etest.Git(t, repo, "commit", "-qm", "a")
					e2etest.Git(t, repo, "config", "core.fsmonitor", "./tools/fsmon.sh")
					cmdline = plant("vendor/lib/tools/fsmon.sh")
				case "link":
					e2etest.WriteFile(t, filepath.Join(dir, "tools", "real.sh"), "#!/bin/sh\nexit 0\n")
					if err := os.Symlink("real.sh", filepath.Join(dir, "tools", "fsmon.sh")); err != nil {
						t.Fatal(err)
					}
					e2etest.Git(t, dir, "config", "core.fsmonitor", "tools/fsmon.sh")
					cmdline = plant("tools/evil.sh") + "ln -sf evil.sh tools/fsmon.sh; "
				}
				cmd := exec.Command(e2etest.Bin, "exec", "--plain", "--sandbox", mode, "--", "/bin/sh", "-c", cmdline+"true")
				cmd.Dir, cmd.Env = dir, env
				if b, err := cmd.CombinedOutput(); err != nil {
					t.Fatalf("sentinel exec: %v\n%s", err, b)
				}
				st := exec.Command("git", "status", "--porcelain")
				st.Dir, st.Env = repo, env
				_, _ = st.CombinedOutput()
				if ran, _ := os.ReadDir(marks); len(ran) > 0 {
					t.Fatalf("git status on the host in %s ran the coder's fsmonitor (%s made)", repo, ran[0].Name())
				}
			})
		}
	}
}
