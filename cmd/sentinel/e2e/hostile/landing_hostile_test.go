package hostile

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sentinelhq/sentinel/cmd/sentinel/internal/e2etest"
)

// hostileCoder is a command coder that does a little real work and then
// everything a coder could do to make Sentinel's own git run a program or
// land Sentinel's state: attributes sending every path through driver x,
// driver x defined in every git config it can write, and files under
// .sentinel/ and .git in the spellings macOS and Windows take for them.
func hostileCoder(marker string) string {
	touch := "touch " + marker
	cfg := `[filter "x"]
	clean = ` + touch + `; cat
	smudge = ` + touch + `; cat
	process = ` + touch + `
	required = true
[diff "x"]
	textconv = ` + touch + `; cat
	command = ` + touch + `
[merge "x"]
	driver = ` + touch + `
[core]
	fsmonitor = ` + touch + `
	hooksPath = hooks-of-the-coder
`
	return strings.Join([]string{
		"set -e",
		"echo hi > out.txt",
		"printf '* filter=x diff=x merge=x\\n' > .gitattributes",
		"printf '%s' '" + cfg + "' >> .git/config",
		"mkdir -p .git/info && printf '* filter=x diff=x merge=x\\n' > .git/info/attributes",
		"printf '%s' '" + cfg + "' > gitconfig-x && printf '[include]\\n\\tpath = ../gitconfig-x\\n' >> .git/config",
		// A planted shadow git dir where one used to live (Sentinel's own
		// lives in the user's state dir now, and is never read from here).
		"mkdir -p ../../runs/$(basename \"$PWD\")/shadow.git/info",
		"printf '%s' '" + cfg + "' >> ../../runs/$(basename \"$PWD\")/shadow.git/config",
		"printf '* filter=x diff=x merge=x\\n' >> ../../runs/$(basename \"$PWD\")/shadow.git/info/attributes",
		"mkdir -p hooks-of-the-coder && printf '#!/bin/sh\\n" + touch + "\\n' > hooks-of-the-coder/post-checkout && chmod +x hooks-of-the-coder/post-checkout",
		"mkdir -p .sentinel .SENTINEL .Git/hooks sub/.git deep/.GIT",
		"echo 'coder = \"planted\"' > .sentinel/config.toml",
		"echo planted > .sentinel/templates.toml",
		"echo planted > .SENTINEL/x",
		"printf '#!/bin/sh\\n" + touch + "\\n' > .Git/hooks/post-checkout && chmod +x .Git/hooks/post-checkout",
		"echo planted > sub/.git/config",
		"echo planted > deep/.GIT/config",
	}, "\n")
}

// TestAHostileCoderRunsNothingAndLandsNoState drives the real binary: in
// both apply modes, no driver, hook or fsmonitor the coder set up runs on
// Sentinel's side (verify, diff, landing, review), none of the state files
// lands, and the person's own ignored .sentinel/config.toml is untouched,
// even after checking out the landed branch.
func TestAHostileCoderRunsNothingAndLandsNoState(t *testing.T) {
	t.Parallel()
	for _, mode := range []string{"branch", "worktree"} {
		t.Run(mode, func(t *testing.T) {
			dir := e2etest.ScratchRepo(t)
			own := "# the person's own config\n"
			e2etest.WriteFile(t, filepath.Join(dir, ".sentinel", "config.toml"), own)
			marker := filepath.Join(t.TempDir(), "driver-ran")
			// --sandbox off: the sandbox keeps the workspace's .git
			// read-only, and this test gives the coder the most it could
			// ever write, to prove Sentinel's own git calls run none of it.
			res := e2etest.Sentinel(t, dir, nil, "run", "--plain", "--sandbox", "off", "--apply", mode, "--verify", "test -f out.txt",
				"--coder", "command", "hostile", "--", "sh", "-c", hostileCoder(marker))
			if mode == "branch" && res.Code != 0 {
				t.Fatalf("exit %d: %s\n%s", res.Code, res.Stderr, res.Stdout)
			}
			if mode == "worktree" {
				if res.Code != 1 || !strings.Contains(res.Stderr, "sentinel review") {
					t.Fatalf("exit %d: %s\n%s", res.Code, res.Stderr, res.Stdout)
				}
				res = e2etest.Sentinel(t, dir, nil, "review", "last", "--approve", "--apply", "worktree")
				if res.Code != 0 {
					t.Fatalf("review --approve: %d %s\n%s", res.Code, res.Stderr, res.Stdout)
				}
			}
			if _, err := os.Stat(marker); err == nil {
				t.Fatal("a driver, hook or fsmonitor the coder set up ran on Sentinel's side")
			}
			var landed string
			if mode == "branch" {
				branch := e2etest.Git(t, dir, "branch", "--list", "sentinel/*", "--format=%(refname:short)")
				landed = e2etest.Git(t, dir, "ls-tree", "-r", "--name-only", branch)
				// Checking the branch out must not touch the person's state.
				e2etest.Git(t, dir, "stash", "-u", "-q")
				e2etest.Git(t, dir, "checkout", "-q", branch)
			} else {
				landed = e2etest.Git(t, dir, "status", "--porcelain", "--untracked-files=all")
			}
			if !strings.Contains(landed, "out.txt") || !strings.Contains(landed, ".gitattributes") {
				t.Fatalf("the coder's real work did not land:\n%s", landed)
			}
			for _, bad := range []string{".sentinel", ".SENTINEL", ".Git", "sub/", "deep/"} {
				if strings.Contains(landed, bad) {
					t.Fatalf("%s landed:\n%s", bad, landed)
				}
			}
			for _, f := range []string{".SENTINEL/x", ".Git/hooks/post-checkout", "sub/.git/config", "deep/.GIT/config", ".sentinel/templates.toml"} {
				if _, err := os.Stat(filepath.Join(dir, f)); err == nil {
					t.Errorf("%s is in the project", f)
				}
			}
			if b, _ := os.ReadFile(filepath.Join(dir, ".sentinel", "config.toml")); string(b) != own {
				t.Fatalf("the person's .sentinel/config.toml became %q", b)
			}
			if _, err := os.Stat(marker); err == nil {
				t.Fatal("a driver ran once the change was in the project")
			}
		})
	}
}

// TestAChangeOverTheSizeLimitIsRefusedAndLeavesGitAlone: a coder that
// writes a large random file gets a refusal naming the file and the flag,
// no branch, and the project's object store does not grow.
func TestAChangeOverTheSizeLimitIsRefusedAndLeavesGitAlone(t *testing.T) {
	t.Parallel()
	dir := e2etest.ScratchRepo(t)
	// The store's size in KiB (loose and packed). The snapshot of the
	// person's own uncommitted files adds a few small objects; the 3MB of
	// the coder's must add nothing.
	objects := func() int {
		var kib int
		for _, l := range strings.Split(e2etest.Git(t, dir, "count-objects", "-v"), "\n") {
			var n int
			if _, err := fmt.Sscanf(l, "size: %d", &n); err == nil {
				kib += n
			} else if _, err := fmt.Sscanf(l, "size-pack: %d", &n); err == nil {
				kib += n
			}
		}
		return kib
	}
	before := objects()
	res := e2etest.Sentinel(t, dir, nil, "run", "--plain", "--max-file-size", "1MB",
		"--coder", "command", "big", "--", "sh", "-c", "echo small > ok.txt; head -c 3000000 /dev/urandom > big.bin")
	if res.Code != 1 || !strings.Contains(res.Stderr, "big.bin") || !strings.Contains(res.Stderr, "--max-file-size 3MB") {
		t.Fatalf("exit %d: %s\n%s", res.Code, res.Stderr, res.Stdout)
	}
	if b := e2etest.Git(t, dir, "branch", "--list", "sentinel/*"); b != "" {
		t.Fatalf("a refused change made branch %s", b)
	}
	if after := objects(); after-before > 100 {
		t.Fatalf("the project's object store grew by %d KiB", after-before)
	}
}
