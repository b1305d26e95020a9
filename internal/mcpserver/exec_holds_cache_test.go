//go:build unix

package mcpserver

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// lookFixture is an rw path holding the person's repository, a folder
// outside it, and a fresh home, system config and git environment.
type lookFixture struct {
	g                 *gitGuard
	root, out, home   string
	xdg, systemConfig string
}

func newLookFixture(t *testing.T) *lookFixture {
	t.Helper()
	was := lookRacy
	lookRacy = 50 * time.Millisecond // a test's changes come fast; 50 ms is many ticks of the file system's clock
	t.Cleanup(func() { lookRacy = was })
	quiet := quietDir(t)
	sub := func(name string) string {
		d := filepath.Join(quiet, name)
		if err := os.Mkdir(d, 0o755); err != nil {
			t.Fatal(err)
		}
		return d
	}
	f := &lookFixture{root: sub("root"), out: sub("out"), home: sub("home")}
	// Each input in a folder of its own: a change to one moves no
	// directory the look stamps for another.
	f.xdg = sub("xdg")
	f.systemConfig = filepath.Join(sub("system"), "system.gitconfig")
	t.Setenv("XDG_STATE_HOME", t.TempDir())
	t.Setenv("HOME", f.home)
	t.Setenv("XDG_CONFIG_HOME", f.xdg)
	t.Setenv("GIT_CONFIG_SYSTEM", f.systemConfig)
	for _, k := range []string{"GIT_CONFIG_GLOBAL", "GIT_CONFIG_NOSYSTEM", "GIT_CONFIG_COUNT", "GIT_DIR", "GIT_CONFIG_PARAMETERS"} {
		t.Setenv(k, "")
		os.Unsetenv(k)
	}
	gitInit(t, f.root)
	f.g = &gitGuard{}
	if _, err := f.g.protect(f.root); err != nil {
		t.Fatal(err)
	}
	return f
}

// quietDir is a fresh directory for a look's inputs whose parents change
// only rarely. The look stamps every directory on the way to each path it
// read, times included, so a new entry in any of them drops the kept
// answer; the shared temp dir (/tmp) gains and loses entries every second
// or two on a busy machine (every test's t.TempDir is made there), and
// settle then never saw an answer kept: "the look's answer was never
// kept" after two minutes at load 50. /var/tmp is as writable and
// quiet; without it, the temp dir.
func quietDir(t *testing.T) string {
	t.Helper()
	d, err := os.MkdirTemp("/var/tmp", "sentinel-look-")
	if err != nil {
		return t.TempDir()
	}
	t.Cleanup(func() { os.RemoveAll(d) })
	if d, err = filepath.EvalSymlinks(d); err != nil {
		t.Fatal(err)
	}
	return d
}

// answer is what the look before a command holds now, sorted.
func (f *lookFixture) answer(t *testing.T) string {
	t.Helper()
	held, _, _, err := f.g.holdsNow(context.Background(), []string{f.root})
	if err != nil {
		t.Fatal(err)
	}
	slices.Sort(held)
	return strings.Join(slices.Compact(held), "\n")
}

// settle looks until an answer is kept (two looks in a row, the second
// answered from the kept one), and is it.
func (f *lookFixture) settle(t *testing.T) string {
	t.Helper()
	for end := time.Now().Add(2 * time.Minute); time.Now().Before(end); {
		a := f.answer(t)
		full := f.g.looks.full
		if b := f.answer(t); b == a && f.g.looks.full == full {
			return a
		}
	}
	t.Fatal("the look's answer was never kept")
	return ""
}

// fresh is a full look's answer, the kept one put aside.
func (f *lookFixture) fresh(t *testing.T) string {
	t.Helper()
	f.g.looks.off = true
	defer func() { f.g.looks.off = false }()
	return f.answer(t)
}

func lookGit(t *testing.T, dir string, args ...string) {
	t.Helper()
	if out, err := exec.Command("git", append([]string{"-C", dir}, args...)...).CombinedOutput(); err != nil {
		t.Fatalf("git %v: %v\n%s", args, err, out)
	}
}

// Every input of the look before a command, changed after its answer was
// kept, is noticed: the next look's answer is a full look's, and differs
// from the kept one (each change sends git somewhere new in the rw
// path). One subtest per kind of input; each fails when the kept answer's
// stamps leave that kind out.
func TestLookBeforeACommandNoticesEveryInput(t *testing.T) {
	type lookCase struct {
		name          string
		before, after func(t *testing.T, f *lookFixture)
	}
	includeOf := func(p string) string { return "[include]\n\tpath = " + p + "\n" }
	hooksIn := func(f *lookFixture, n string) string {
		return "[core]\n\thooksPath = " + filepath.Join(f.root, n) + "\n"
	}
	cases := []lookCase{
		{"global ~/.gitconfig appears", nil, func(t *testing.T, f *lookFixture) {
			write(t, filepath.Join(f.home, ".gitconfig"), includeOf(filepath.Join(f.root, "g.cfg")))
		}},
		{"XDG git/config changes", func(t *testing.T, f *lookFixture) {
			write(t, filepath.Join(f.xdg, "git", "config"), "[user]\n\tname = p\n")
		}, func(t *testing.T, f *lookFixture) {
			write(t, filepath.Join(f.xdg, "git", "config"), includeOf(filepath.Join(f.root, "x.cfg")))
		}},
		{"system config changes", func(t *testing.T, f *lookFixture) {
			write(t, f.systemConfig, "")
		}, func(t *testing.T, f *lookFixture) {
			write(t, f.systemConfig, hooksIn(f, "syshooks"))
		}},
		{"GIT_CONFIG_* environment", nil, func(t *testing.T, f *lookFixture) {
			t.Setenv("GIT_CONFIG_COUNT", "1")
			t.Setenv("GIT_CONFIG_KEY_0", "core.hooksPath")
			t.Setenv("GIT_CONFIG_VALUE_0", filepath.Join(f.root, "envhooks"))
		}},
		{"include.path given in the environment changes", func(t *testing.T, f *lookFixture) {
			write(t, filepath.Join(f.out, "env.cfg"), "")
			t.Setenv("GIT_CONFIG_COUNT", "1")
			t.Setenv("GIT_CONFIG_KEY_0", "include.path")
			t.Setenv("GIT_CONFIG_VALUE_0", filepath.Join(f.out, "env.cfg"))
		}, func(t *testing.T, f *lookFixture) {
			write(t, filepath.Join(f.out, "env.cfg"), hooksIn(f, "envinchooks"))
		}},
		{"include outside the rw path changes", func(t *testing.T, f *lookFixture) {
			write(t, filepath.Join(f.out, "team.cfg"), "")
			gitConfig(t, f.root, "include.path", filepath.Join(f.out, "team.cfg"))
		}, func(t *testing.T, f *lookFixture) {
			write(t, filepath.Join(f.out, "team.cfg"), hooksIn(f, "teamhooks"))
		}},
		{"missing include appears", func(t *testing.T, f *lookFixture) {
			gitConfig(t, f.root, "include.path", filepath.Join(f.out, "later", "later.cfg"))
		}, func(t *testing.T, f *lookFixture) {
			write(t, filepath.Join(f.out, "later", "later.cfg"), hooksIn(f, "laterhooks"))
		}},
		{"missing include appears, its folder there", func(t *testing.T, f *lookFixture) {
			if err := os.Mkdir(filepath.Join(f.out, "there"), 0o755); err != nil {
				t.Fatal(err)
			}
			gitConfig(t, f.root, "include.path", filepath.Join(f.out, "there", "later.cfg"))
		}, func(t *testing.T, f *lookFixture) {
			write(t, filepath.Join(f.out, "there", "later.cfg"), hooksIn(f, "laterhooks"))
		}},
		// An include behind a condition is read whether or not it holds
		// (gitincludes.allIncludes), so checking the branch out changes
		// nothing; the file behind it changing does.
		{"an include behind includeIf onbranch changes", func(t *testing.T, f *lookFixture) {
			write(t, filepath.Join(f.out, "feature.cfg"), "")
			gitConfig(t, f.root, "includeIf.onbranch:feature.path", filepath.Join(f.out, "feature.cfg"))
		}, func(t *testing.T, f *lookFixture) {
			write(t, filepath.Join(f.out, "feature.cfg"), hooksIn(f, "featurehooks"))
		}},
		{"config.worktree changes", func(t *testing.T, f *lookFixture) {
			gitConfig(t, f.root, "core.repositoryformatversion", "1")
			gitConfig(t, f.root, "extensions.worktreeConfig", "true")
			write(t, filepath.Join(f.root, ".git", "config.worktree"), "")
		}, func(t *testing.T, f *lookFixture) {
			write(t, filepath.Join(f.root, ".git", "config.worktree"), hooksIn(f, "wthooks"))
		}},
		{"a .git file re-pointed", func(t *testing.T, f *lookFixture) {
			for _, n := range []string{"gdA", "gdB"} {
				lookGit(t, f.out, "init", "-q", "--bare", n)
			}
			gitConfig(t, filepath.Join(f.out, "gdB"), "include.path", filepath.Join(f.root, "b.cfg"))
			write(t, filepath.Join(f.root, "sub", ".git"), "gitdir: "+filepath.Join(f.out, "gdA")+"\n")
		}, func(t *testing.T, f *lookFixture) {
			write(t, filepath.Join(f.root, "sub", ".git"), "gitdir: "+filepath.Join(f.out, "gdB")+"\n")
		}},
		{"a commondir re-pointed", func(t *testing.T, f *lookFixture) {
			for _, n := range []string{"cA", "cB"} {
				lookGit(t, f.out, "init", "-q", "--bare", n)
			}
			gitConfig(t, filepath.Join(f.out, "cB"), "include.path", filepath.Join(f.root, "c.cfg"))
			wt := filepath.Join(f.out, "wtgd")
			write(t, filepath.Join(wt, "HEAD"), "ref: refs/heads/main\n")
			write(t, filepath.Join(wt, "commondir"), filepath.Join(f.out, "cA")+"\n")
			write(t, filepath.Join(f.root, "wt", ".git"), "gitdir: "+wt+"\n")
		}, func(t *testing.T, f *lookFixture) {
			write(t, filepath.Join(f.out, "wtgd", "commondir"), filepath.Join(f.out, "cB")+"\n")
		}},
		{"a new repository deep in the rw path", func(t *testing.T, f *lookFixture) {
			if err := os.MkdirAll(filepath.Join(f.root, "a", "b", "c"), 0o755); err != nil {
				t.Fatal(err)
			}
		}, func(t *testing.T, f *lookFixture) {
			gitInit(t, filepath.Join(f.root, "a", "b", "c", "new"))
		}},
		{"a nested repository's config changes", func(t *testing.T, f *lookFixture) {
			gitInit(t, filepath.Join(f.root, "vendor"))
		}, func(t *testing.T, f *lookFixture) {
			gitConfig(t, filepath.Join(f.root, "vendor"), "core.hooksPath", "vhooks")
		}},
		{"a link on the way to an include re-pointed", func(t *testing.T, f *lookFixture) {
			write(t, filepath.Join(f.out, "A", "inc.cfg"), "")
			write(t, filepath.Join(f.out, "B", "inc.cfg"), hooksIn(f, "linkhooks"))
			if err := os.Symlink(filepath.Join(f.out, "A"), filepath.Join(f.out, "L")); err != nil {
				t.Fatal(err)
			}
			gitConfig(t, f.root, "include.path", filepath.Join(f.out, "L", "inc.cfg"))
		}, func(t *testing.T, f *lookFixture) {
			tmp := filepath.Join(f.out, "L2")
			if err := os.Symlink(filepath.Join(f.out, "B"), tmp); err != nil {
				t.Fatal(err)
			}
			if err := os.Rename(tmp, filepath.Join(f.out, "L")); err != nil {
				t.Fatal(err)
			}
		}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			f := newLookFixture(t)
			if c.before != nil {
				c.before(t, f)
			}
			kept := f.settle(t)
			full := f.g.looks.full
			c.after(t, f)
			got := f.answer(t)
			if f.g.looks.full == full {
				t.Errorf("the change was not noticed: the kept answer was given")
			}
			if want := f.fresh(t); got != want {
				t.Errorf("the answer after the change is not a full look's:\ngot:\n%s\nwant:\n%s", got, want)
			}
			if got == kept {
				t.Errorf("the change did not change the answer (the case tests nothing):\n%s", got)
			}
		})
	}
}
