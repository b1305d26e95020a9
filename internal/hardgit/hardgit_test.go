package hardgit

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

func needGit(t *testing.T) {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatal("git is not installed (CI=true: it must be)")
		}
		t.Skip("git is not installed")
	}
}

// hostileRepo is a repository whose attributes send every path through
// driver "x" (and "a=b", a name a -c argument would split), and whose config
// — its own and an included file — makes every driver touch a marker.
func hostileRepo(t *testing.T) (dir, marker string) {
	t.Helper()
	needGit(t)
	dir = t.TempDir()
	marker = filepath.Join(t.TempDir(), "marker")
	ctx := context.Background()
	g := Git{Dir: dir}
	mustRun(t, g, "init", "-q", "-b", "main")
	write(t, filepath.Join(dir, "f.txt"), "one\ntwo\nthree\n")
	write(t, filepath.Join(dir, ".gitattributes"), "* filter=x diff=x merge=x\n*.bin filter=a=b diff=a=b merge=a=b\n")
	write(t, filepath.Join(dir, "z.bin"), "zz\n")
	mustRun(t, g, "add", "-A")
	mustRun(t, g, "commit", "-q", "-m", "base")
	touch := "touch " + marker + "; cat"
	cfg := "[filter \"x\"]\n\tclean = " + touch + "\n\tsmudge = " + touch + "\n\tprocess = sh -c 'touch " + marker + "'\n\trequired = true\n" +
		"[diff \"x\"]\n\ttextconv = " + touch + "\n\tcommand = " + touch + "\n" +
		"[merge \"x\"]\n\tdriver = " + touch + "\n" +
		"[include]\n\tpath = " + filepath.Join(dir, "extra.config") + "\n"
	f, err := os.OpenFile(filepath.Join(dir, ".git", "config"), os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.WriteString(cfg); err != nil {
		t.Fatal(err)
	}
	f.Close()
	write(t, filepath.Join(dir, "extra.config"), "[filter \"a=b\"]\n\tclean = "+touch+"\n\tsmudge = "+touch+"\n[diff \"a=b\"]\n\ttextconv = "+touch+"\n[merge \"a=b\"]\n\tdriver = "+touch+"\n")
	write(t, filepath.Join(dir, ".git", "info", "attributes"), "* filter=x diff=x merge=x\n")
	_ = ctx
	return dir, marker
}

func write(t *testing.T, p, body string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
}

func mustRun(t *testing.T, g Git, args ...string) string {
	t.Helper()
	out, err := g.Run(context.Background(), args...)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func exists(p string) bool { _, err := os.Stat(p); return err == nil }

// TestHostileDriversRunNothing: with a hostile config and attributes, the
// git commands Sentinel uses run no driver.
func TestHostileDriversRunNothing(t *testing.T) {
	dir, marker := hostileRepo(t)
	ctx := context.Background()
	g := Git{Dir: dir}
	write(t, filepath.Join(dir, "f.txt"), "one\ntwo\nthree\nfour\n")
	write(t, filepath.Join(dir, "z.bin"), "changed\n")
	idx := filepath.Join(t.TempDir(), "index")
	gi := Git{Dir: dir, Env: []string{"GIT_INDEX_FILE=" + idx}}
	steps := [][]string{
		{"status", "--porcelain"},
		{"add", "-A"},
		{"diff", "--cached", "--binary", "--no-ext-diff", "--no-textconv"},
		{"diff", "HEAD", "--no-ext-diff", "--no-textconv"},
		{"stash"},
		{"stash", "pop"},
		{"checkout", "--", "f.txt"},
		{"cat-file", "blob", "HEAD:f.txt"},
		{"ls-tree", "HEAD"},
	}
	for _, s := range steps {
		if _, err := g.Run(ctx, s...); err != nil {
			if exists(marker) {
				t.Fatalf("git %v ran a driver from the repository's config", s)
			}
			t.Fatalf("git %v: %v", s, err)
		}
	}
	mustRun(t, gi, "read-tree", "HEAD")
	write(t, filepath.Join(dir, "f.txt"), "one\ntwo\nthree\nfive\n")
	patch := mustRun(t, g, "diff", "--binary", "--no-ext-diff", "--no-textconv")
	pf := filepath.Join(t.TempDir(), "p.diff")
	write(t, pf, patch)
	mustRun(t, gi, "apply", "--cached", "--binary", pf)
	mustRun(t, gi, "write-tree")
	// A merge goes through the merge driver: it may fail, but run nothing.
	mustRun(t, g, "commit", "-q", "-am", "five")
	mustRun(t, g, "checkout", "-q", "-b", "side", "HEAD~1")
	write(t, filepath.Join(dir, "f.txt"), "zero\none\ntwo\nthree\n")
	mustRun(t, g, "commit", "-q", "-am", "zero")
	_, _ = g.Run(ctx, "merge", "main")
	if exists(marker) {
		t.Fatal("a driver from the repository's config ran through hardened git")
	}
}

// TestHostileRepoIsHostile proves the repository above does run its
// drivers when git is not hardened, so the test above means something.
func TestHostileRepoIsHostile(t *testing.T) {
	dir, marker := hostileRepo(t)
	write(t, filepath.Join(dir, "f.txt"), "changed\n")
	cmd := exec.Command("git", append(append([]string{}, Config...), "add", "-A")...)
	cmd.Dir = dir
	cmd.Env = Env()
	_ = cmd.Run()
	if !exists(marker) {
		t.Fatal("the hostile repository ran no driver even without the overrides")
	}
}

func TestOverridesNameEveryDriver(t *testing.T) {
	dir, _ := hostileRepo(t)
	env, err := Overrides(context.Background(), dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	joined := strings.Join(env, "\n")
	for _, want := range []string{"filter.x.clean", "filter.x.process", "diff.x.textconv", "merge.x.driver", "filter.a=b.smudge", "merge.a=b.driver"} {
		if !strings.Contains(joined, "="+want+"\n") {
			t.Errorf("no override for %s in\n%s", want, joined)
		}
	}
}

func TestEnvDropsCallersGitVariables(t *testing.T) {
	t.Setenv("GIT_DIR", "/elsewhere")
	t.Setenv("GIT_CONFIG_PARAMETERS", "'core.fsmonitor'='touch /tmp/x'")
	for _, kv := range Env() {
		if strings.HasPrefix(kv, "GIT_DIR=") || strings.HasPrefix(kv, "GIT_CONFIG_PARAMETERS=") {
			t.Errorf("Env kept %s", kv)
		}
	}
}

// TestEnvAsksForHugePages: git gets glibc's huge-page tunable (the cost of
// reading a large index is mostly page faults), and a person's own
// GLIBC_TUNABLES is left as it is.
func TestEnvAsksForHugePages(t *testing.T) {
	t.Setenv("GLIBC_TUNABLES", "")
	os.Unsetenv("GLIBC_TUNABLES")
	if !slices.Contains(Env(), "GLIBC_TUNABLES=glibc.malloc.hugetlb=1") {
		t.Errorf("Env has no huge-page tunable: %q", Env())
	}
	t.Setenv("GLIBC_TUNABLES", "glibc.malloc.arena_max=2")
	var got []string
	for _, kv := range Env() {
		if strings.HasPrefix(kv, "GLIBC_TUNABLES=") {
			got = append(got, kv)
		}
	}
	if !slices.Equal(got, []string{"GLIBC_TUNABLES=glibc.malloc.arena_max=2"}) {
		t.Errorf("the person's tunables became %q", got)
	}
}

// TestNoContentTopLevelRunsNothing: rev-parse --show-toplevel without the
// driver scan, in the hostile repository with an fsmonitor hook and a
// post-checkout hook of its own added, runs nothing and still answers from
// a subdirectory.
func TestNoContentTopLevelRunsNothing(t *testing.T) {
	dir, marker := hostileRepo(t)
	touch := "#!/bin/sh\ntouch " + marker + "\n"
	write(t, filepath.Join(dir, "fsmon.sh"), touch)
	os.Chmod(filepath.Join(dir, "fsmon.sh"), 0o755)
	f, err := os.OpenFile(filepath.Join(dir, ".git", "config"), os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString("[core]\n\tfsmonitor = " + filepath.Join(dir, "fsmon.sh") + "\n\tpager = sh -c 'touch " + marker + "'\n")
	f.Close()
	sub := filepath.Join(dir, "sub")
	if err := os.Mkdir(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	out, err := Git{Dir: sub, NoContent: true}.Run(context.Background(), "rev-parse", "--show-toplevel")
	if err != nil {
		t.Fatal(err)
	}
	if real, _ := filepath.EvalSymlinks(dir); strings.TrimSpace(out) != real {
		t.Fatalf("top level %q, want %s", out, real)
	}
	if exists(marker) {
		t.Fatal("rev-parse without the driver scan ran something from the repository's config")
	}
}
