package opencode

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// In place, the run's opencode opens the project's own session store
// (OPENCODE_DB), which the sandbox shows writable; another project's
// store is another directory, hidden; the person's own opencode.db is
// never named; a run that keeps no sessions gets no store (31.7).
func TestInPlaceOpencodeKeepsTheProjectsSessionsApart(t *testing.T) {
	home := t.TempDir()
	env := map[string]string{}
	getenv := func(k string) string { return env[k] }
	prepare := func(project string) (*Adapter, Needs) {
		t.Helper()
		a := New(Options{Launch: []string{"/usr/bin/opencode"}, Sentinel: "/usr/bin/sentinel"})
		n, err := a.Prepare(RunPaths{Home: home, Getenv: getenv, StateDir: t.TempDir(), Project: project, SessionsOf: project})
		if err != nil {
			t.Fatal(err)
		}
		return a, n
	}
	dbOf := func(a *Adapter) string {
		for _, e := range a.Env() {
			if v, ok := strings.CutPrefix(e, "OPENCODE_DB="); ok {
				return v
			}
		}
		return ""
	}
	a1, n1 := prepare("/work/one")
	db1 := dbOf(a1)
	store := filepath.Dir(db1)
	if db1 == "" || !strings.HasPrefix(db1, filepath.Join(home, ".local", "share", "sentinel", "opencode")+"/") || filepath.Base(db1) != "opencode.db" {
		t.Fatalf("OPENCODE_DB = %q, want the project's store under Sentinel's data dir", db1)
	}
	if !slices.Contains(n1.Writable, store) {
		t.Errorf("the store %s is not writable in the sandbox: %v", store, n1.Writable)
	}
	if fi, err := os.Lstat(store); err != nil || !fi.IsDir() || fi.Mode().Perm() != 0o700 {
		t.Errorf("the store: %v %v, want a 0700 directory", fi, err)
	}
	again, _ := prepare("/work/one")
	if dbOf(again) != db1 {
		t.Errorf("the next run of the project opens %q, not %q", dbOf(again), db1)
	}
	a2, n2 := prepare("/work/two")
	if dbOf(a2) == db1 || filepath.Dir(dbOf(a2)) == store {
		t.Errorf("another project opens the same store %q", dbOf(a2))
	}
	if !slices.Contains(n2.Hidden, store) || slices.Contains(n2.Writable, store) {
		t.Errorf("the other project's run sees this project's store: hidden %v, writable %v", n2.Hidden, n2.Writable)
	}

	// XDG_DATA_HOME moves the stores with it.
	env["XDG_DATA_HOME"] = filepath.Join(home, "data")
	a3, _ := prepare("/work/one")
	if !strings.HasPrefix(dbOf(a3), filepath.Join(home, "data", "sentinel", "opencode")+"/") {
		t.Errorf("with XDG_DATA_HOME, OPENCODE_DB = %q", dbOf(a3))
	}
	delete(env, "XDG_DATA_HOME")

	// Not in place: no store, opencode's own (the run's) database.
	a4 := New(Options{Launch: []string{"/usr/bin/opencode"}, Sentinel: "/usr/bin/sentinel"})
	n4, err := a4.Prepare(RunPaths{Home: home, Getenv: getenv, StateDir: t.TempDir(), Project: "/work/one"})
	if err != nil {
		t.Fatal(err)
	}
	if dbOf(a4) != "" || slices.Contains(n4.Writable, store) {
		t.Errorf("a run that keeps no sessions opens %q, writable %v", dbOf(a4), n4.Writable)
	}
}

// A store that is a link (to the person's own opencode data, say), or
// that others may write, is refused with the fix, never opened.
func TestOpencodeSessionStoreMustBeAPrivateDirectory(t *testing.T) {
	home := t.TempDir()
	getenv := func(string) string { return "" }
	store, _, err := sessionStore(home, getenv, "/work/one")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(store, 0o777); err != nil {
		t.Fatal(err)
	}
	if _, _, err := sessionStore(home, getenv, "/work/one"); err == nil || !strings.Contains(err.Error(), "not a private directory of yours (remove it") {
		t.Errorf("a store others may write: %v", err)
	}
	person := filepath.Join(home, ".local", "share", "opencode")
	if err := os.MkdirAll(person, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(store); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(person, store); err != nil {
		t.Fatal(err)
	}
	if got, _, err := sessionStore(home, getenv, "/work/one"); err == nil {
		t.Errorf("a store linked to the person's opencode data is opened: %s", got)
	}
}
