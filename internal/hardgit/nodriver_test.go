package hardgit

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestCommandsWithoutTheScanRunNoDriver runs, in the hostile repository
// (every path through drivers that touch a marker), each command that skips
// the driver scan, as Sentinel's runner calls it, with the scan's
// overrides absent: none may run a driver. A command added to noDriver
// that converts content (hash-object, checkout, ls-files -m) fails here.
func TestCommandsWithoutTheScanRunNoDriver(t *testing.T) {
	dir, marker := hostileRepo(t)
	ctx := context.Background()
	g := Git{Dir: dir}
	write(t, filepath.Join(dir, "f.txt"), "one\ntwo\nthree\nfour\n")
	write(t, filepath.Join(dir, "new.txt"), "untracked\n")
	head := strings.TrimSpace(mustRun(t, g, "rev-parse", "HEAD"))
	tree := strings.TrimSpace(mustRun(t, g, "rev-parse", "HEAD^{tree}"))
	blob := strings.TrimSpace(mustRun(t, g, "rev-parse", "HEAD:f.txt"))
	mustRun(t, g, "remote", "add", "o", dir)
	steps := []struct {
		args  []string
		stdin string
	}{
		{args: []string{"rev-parse", "--show-toplevel"}},
		{args: []string{"rev-parse", "--absolute-git-dir"}},
		{args: []string{"rev-parse", "--verify", "-q", "HEAD^{commit}"}},
		{args: []string{"ls-files", "-z"}},
		{args: []string{"ls-files", "-z", "--others", "--exclude-standard", "--", "."}},
		{args: []string{"ls-files", "--stage", "f.txt"}},
		{args: []string{"ls-tree", "-r", "HEAD"}},
		{args: []string{"cat-file", "-z", "--batch"}, stdin: blob + "\x00"},
		{args: []string{"cat-file", "blob", blob}},
		{args: []string{"mktree", "-z", "--batch"}, stdin: "100644 blob " + blob + "\tg.txt\x00"},
		{args: []string{"commit-tree", tree, "-p", head, "-m", "m"}},
		{args: []string{"update-ref", "refs/heads/other", head}},
		{args: []string{"symbolic-ref", "HEAD"}},
		{args: []string{"show-ref"}},
		{args: []string{"read-tree", head}},
		{args: []string{"write-tree"}},
		{args: []string{"for-each-ref", "--format=%(refname)"}},
		{args: []string{"config", "-z", "--get-regexp", "^core\\."}},
		{args: []string{"remote", "remove", "o"}},
		{args: []string{"init", "--quiet", "--bare", "--", filepath.Join(t.TempDir(), "shadow.git")}},
	}
	skipped := 0
	for _, s := range steps {
		if !RunsNoDriver(s.args) {
			continue
		}
		skipped++
		gs := g
		if s.stdin != "" {
			gs.Stdin = strings.NewReader(s.stdin)
		}
		_, err := gs.Run(ctx, s.args...)
		if exists(marker) {
			t.Fatalf("git %v ran a driver of the repository's config without the scan", s.args)
		}
		if err != nil {
			t.Fatalf("git %v: %v", s.args, err)
		}
	}
	if skipped != len(steps) {
		t.Fatalf("only %d of %d driver-free commands skip the scan", skipped, len(steps))
	}
}

// TestContentCommandsKeepTheScan: what may convert a file's content, or a
// command RunsNoDriver does not know, gets the driver scan; and leaving it
// out of one of them would run the hostile repository's driver.
func TestContentCommandsKeepTheScan(t *testing.T) {
	for _, args := range [][]string{
		{"hash-object", "-w", "--stdin-paths"},
		{"checkout", "--quiet", "--detach", "HEAD"},
		{"diff-index", "-z", "--no-renames", "HEAD", "--"},
		{"ls-files", "-m"},
		{"read-tree", "-u", "-m", "HEAD"},
		{"read-tree", "--reset", "HEAD"},
		{"ls-files", "-z", "--modified"},
		{"cat-file", "--textconv", "HEAD:f.txt"},
		{"cat-file", "--batch", "--filters"},
		{"cat-file", "--filters=x"},
		{"cat-file", "--filt", "HEAD:f.txt"}, // git takes a long option's prefix
		{"cat-file", "--text", "HEAD:f.txt"},
		{"cat-file", "--batch", "--textc"},
		{"status", "--porcelain"},
		{"add", "-A"},
		{"remote", "update"},
		{"-c", "a.b=c"},
		{},
	} {
		if RunsNoDriver(args) {
			t.Errorf("git %v skips the driver scan", args)
		}
	}
	if !RunsNoDriver([]string{"-c", "core.quotePath=false", "rev-parse", "HEAD"}) {
		t.Error("a -c pair before rev-parse brings the scan back")
	}
	// The scan is what keeps hash-object's clean filter from running.
	dir, marker := hostileRepo(t)
	write(t, filepath.Join(dir, "f.txt"), "changed\n")
	over, err := Overrides(context.Background(), dir, nil)
	if err != nil || len(over) == 0 {
		t.Fatalf("overrides %v, %v", over, err)
	}
	g := Git{Dir: dir, NoContent: true, Stdin: strings.NewReader("f.txt\n")}
	_, _ = g.Run(context.Background(), "hash-object", "-w", "--stdin-paths")
	if !exists(marker) {
		t.Fatal("hash-object without the scan ran no driver: the hostile repository proves nothing")
	}
	_ = os.Remove(marker)
}
