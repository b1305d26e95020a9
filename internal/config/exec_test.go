package config

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// [exec] writable names places one by one: not the machine, not the home,
// not a relative path; a file that tries is refused with its line.
func TestExecWritableIsChecked(t *testing.T) {
	for src, want := range map[string]string{
		"[exec]\nwritable = [\"relative/dir\"]\n": "want an absolute path or one starting with ~/",
		"[exec]\nwritable = [\"~\"]\n":            "the whole home is too much",
		"[exec]\nwritable = [\"/\"]\n":            "the whole file system is too much",
		"[exec]\nwritable = [\"\"]\n":             "empty",
		"[exec]\nreadable = [\"/x\"]\n":           `unknown key "exec.readable"`,
	} {
		p := filepath.Join(t.TempDir(), "config.toml")
		os.WriteFile(p, []byte(src), 0o600)
		if _, err := LoadFile(p); err == nil || !strings.Contains(err.Error(), want) || !strings.Contains(err.Error(), p) {
			t.Errorf("%q: err %v, want one naming %s and %q", src, err, p, want)
		}
	}
	p := filepath.Join(t.TempDir(), "config.toml")
	os.WriteFile(p, []byte("[exec]\nwritable = [\"~/build-out\", \"/srv/shared\"]\n"), 0o600)
	c, err := LoadFile(p)
	if err != nil || strings.Join(c.Exec.Writable, ",") != "~/build-out,/srv/shared" {
		t.Fatalf("config %+v, err %v", c.Exec, err)
	}
}

func TestExpandWritable(t *testing.T) {
	home := "/home/ann"
	got, err := ExpandWritable([]string{"~/out/", "/srv/x/../y"}, home)
	if err != nil || strings.Join(got, ",") != "/home/ann/out,/srv/y" {
		t.Fatalf("got %v, %v", got, err)
	}
	for _, bad := range []string{"/home", "/home/ann/.", "~/"} {
		if _, err := ExpandWritable([]string{bad}, home); err == nil {
			t.Errorf("%q was accepted: it holds the whole home", bad)
		}
	}
	if _, err := ExpandWritable([]string{"~/out"}, ""); err == nil || !strings.Contains(err.Error(), "absolute path") {
		t.Errorf("~ with no home: %v", err)
	}
}

// A project file's [exec] writable widens the sandbox: it is withheld
// until that exact file is trusted.
func TestProjectExecWritableNeedsTrust(t *testing.T) {
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	t.Setenv("XDG_STATE_HOME", t.TempDir())
	proj := t.TempDir()
	os.MkdirAll(filepath.Join(proj, ".sentinel"), 0o700)
	os.WriteFile(filepath.Join(proj, ".sentinel", "config.toml"), []byte("[exec]\nwritable = [\"/etc\"]\n"), 0o600)
	c, pf, err := LoadProject(proj)
	if err != nil {
		t.Fatal(err)
	}
	if len(c.Exec.Writable) != 0 {
		t.Errorf("an untrusted project widened exec: %v", c.Exec.Writable)
	}
	if !strings.Contains(pf.Warning(), "[exec] writable") {
		t.Errorf("the trust warning does not name [exec] writable: %q", pf.Warning())
	}
}

// The checkpoint bounds of [exec]: a negative one is an error naming the
// line; a project file's are withheld until approved (a smaller checkpoint
// is less that undo can restore).
func TestExecCheckpointBounds(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "config.toml")
	os.WriteFile(p, []byte("[exec]\ncheckpoint_max_file_mib = 4\ncheckpoint_max_total_mib = -1\n"), 0o600)
	if _, err := LoadFile(p); err == nil || !strings.Contains(err.Error(), ":3: [exec] checkpoint_max_total_mib = -1") {
		t.Fatalf("want an error naming line 3, got %v", err)
	}
	os.WriteFile(p, []byte("[exec]\ncheckpoint_max_file_mib = 4\n"), 0o600)
	c, err := LoadFile(p)
	if err != nil || c.Exec.CheckpointMaxFileMiB != 4 {
		t.Fatalf("%v %+v", err, c.Exec)
	}
	if w := Widening(c); len(w) != 1 || w[0] != "[exec] checkpoint_max_file_mib = 4" {
		t.Fatalf("a project's checkpoint bound is not withheld: %v", w)
	}
}
