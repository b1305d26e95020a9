package runner

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sentinelhq/sentinel/runner/checkpoint"
)

// The person's global config includes a file in the place and sets
// core.hooksPath = .githooks (ipatk9 row 1); exec in the folder makes both
// (with the folders above them) to hold them read-only. At the end what is
// still as Sentinel made it is removed, so the comparison with the
// checkpoint lists no change of the run's; in a second run the include
// was written (a hole: it was read-only), and it is kept and flagged.
// Without removeUnchanged the comparison lists `.gitconfig-shared`,
// `.githooks` and `team/` as the run's changes.
func TestSentinelsOwnPlaceholdersAreNotTheCodersChanges(t *testing.T) {
	home, root := t.TempDir(), t.TempDir()
	t.Setenv("HOME", home)
	t.Setenv("XDG_CONFIG_HOME", filepath.Join(home, ".config"))
	t.Setenv("GIT_CONFIG_NOSYSTEM", "1")
	inc := filepath.Join(root, "team", "conf", ".gitconfig-shared")
	writeTestFile(t, filepath.Join(home, ".gitconfig"), "[include]\n\tpath = "+inc+"\n[core]\n\thooksPath = .githooks\n")
	writeTestFile(t, filepath.Join(root, "notes.txt"), "mine\n")
	s, err := checkpoint.Open(root)
	if err != nil {
		t.Fatal(err)
	}
	for _, write := range []bool{false, true} {
		before, err := checkpoint.Take(s, root, checkpoint.Options{Skip: checkpointSkip()})
		if err != nil {
			t.Fatal(err)
		}
		g := &gitGuard{p: &Project{Root: root}}
		files, _, err := gitConfigIncludes(context.Background(), root, nil, []string{root}, &g.made)
		if err != nil || len(files) != 1 || files[0] != inc {
			t.Fatalf("includes %q %v", files, err)
		}
		dirs, err := gitHooksDirs(context.Background(), root, nil, []string{root}, &g.made)
		if err != nil || len(dirs) != 1 {
			t.Fatalf("hooks dirs %q %v", dirs, err)
		}
		if write {
			writeTestFile(t, inc, "[core]\n\tfsmonitor = ./pwn.sh\n")
		}
		flags := g.removePlaceholders()
		after, err := checkpoint.Take(s, root, checkpoint.Options{Prev: before, Skip: checkpointSkip()})
		if err != nil {
			t.Fatal(err)
		}
		var lines []string
		for _, c := range checkpoint.Diff(before, after) {
			lines = append(lines, c.Line())
		}
		got := strings.Join(lines, "\n")
		if !write {
			if got != "" || len(flags) != 0 {
				t.Errorf("Sentinel's own placeholders are reported as the run's changes:\n%s\nflags %v", got, flags)
			}
			continue
		}
		if !strings.Contains(got, "team/conf/.gitconfig-shared") {
			t.Errorf("the written include is not in the comparison:\n%s", got)
		}
		if len(flags) != 1 || flags[0].Path != "team/conf/.gitconfig-shared" || !strings.HasPrefix(flags[0].Reason, "DANGEROUS: Sentinel made this empty file") {
			t.Errorf("the written include is not flagged: %v", flags)
		}
		if _, err := os.Stat(filepath.Join(root, ".githooks")); err == nil {
			t.Errorf("the empty hooks folder Sentinel made is left")
		}
	}
}
