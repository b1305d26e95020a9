package runner

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sentinelhq/sentinel/internal/journal"
	"github.com/sentinelhq/sentinel/runner/opencode"
)

// opencode writes its project id to .git/opencode on its first run in a
// repository: the end of an in-place run of the opencode adapter tells it
// as the agent's own state, not as a change in the git dir; under another
// adapter, or as anything but a small regular file, it is named as the
// coder's change, and so is everything else in the git dir.
func TestTheAgentsOwnStateInTheGitDirIsNotAWarning(t *testing.T) {
	t.Parallel()
	id := "0123456789abcdef0123456789abcdef01234567\n"
	cases := []struct {
		name    string
		agent   []string
		make    func(t *testing.T, p string)
		ownTold bool
	}{
		{"opencode writes its id", agentGitDirState(opencode.New(opencode.Options{})), func(t *testing.T, p string) {
			writeTestFile(t, p, id)
		}, true},
		{"another agent writes it", agentGitDirState(struct{}{}), func(t *testing.T, p string) {
			writeTestFile(t, p, id)
		}, false},
		{"a link under its name", []string{"opencode"}, func(t *testing.T, p string) {
			if err := os.Symlink("hooks/pre-commit", p); err != nil {
				t.Fatal(err)
			}
		}, false},
		{"a large file under its name", []string{"opencode"}, func(t *testing.T, p string) {
			writeTestFile(t, p, strings.Repeat("x", maxAgentGitDirState+1))
		}, false},
		{"a directory under its name", []string{"opencode"}, func(t *testing.T, p string) {
			writeTestFile(t, filepath.Join(p, "x"), id)
		}, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			gitT(t, dir, "init", "-q")
			gd := filepath.Join(dir, ".git")
			g := &gitGuard{p: &Project{Root: dir, GitDir: gd}, common: gd}
			g.rest = g.snapRest()
			g.agentState = c.agent
			own := filepath.Join(gd, "opencode")
			c.make(t, own)
			writeTestFile(t, filepath.Join(gd, "zz-other"), "x\n")
			var notices, warnings []string
			g.tellRest(func(_ journal.Lane, k journal.Kind, s string, _ any) {
				if k == KindError {
					warnings = append(warnings, s)
				} else {
					notices = append(notices, s)
				}
			})
			warned := strings.Join(warnings, "\n")
			if !strings.Contains(warned, "new "+filepath.Join(gd, "zz-other")) {
				t.Errorf("another new file in the git dir is not named:\n%s", warned)
			}
			told := strings.Contains(strings.Join(notices, "\n"), "the agent keeps its own state in "+own)
			named := strings.Contains(warned, "new "+own)
			if told != c.ownTold || named == c.ownTold {
				t.Errorf("told as the agent's state: %v, named as the coder's change: %v; want told %v\nnotices: %q\nwarnings:\n%s", told, named, c.ownTold, notices, warned)
			}
		})
	}
}
