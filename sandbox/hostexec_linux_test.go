package sandbox

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// plantFakes puts a program of each name in a bin directory of a project
// and in a private directory, both put first on PATH; each leaves a marker
// when anything runs it. It returns the marker's path.
func plantFakes(t *testing.T, names ...string) (marker, project string) {
	t.Helper()
	marker = filepath.Join(t.TempDir(), "ran-on-host")
	project = t.TempDir()
	bins := []string{filepath.Join(project, "node_modules", ".bin"), filepath.Join(t.TempDir(), "bin")}
	for _, b := range bins {
		for _, n := range names {
			mustWrite(t, filepath.Join(b, n), "#!/bin/sh\necho \"$0 $*\" >> '"+marker+"'\necho fake\n")
			if err := os.Chmod(filepath.Join(b, n), 0o755); err != nil {
				t.Fatal(err)
			}
		}
	}
	t.Setenv("PATH", strings.Join(bins, ":")+":"+os.Getenv("PATH"))
	return marker, project
}

func assertNotRun(t *testing.T, marker, what string) {
	t.Helper()
	if b, err := os.ReadFile(marker); err == nil {
		t.Errorf("%s ran a program found first on PATH on the host: %s", what, b)
	}
}

// bwrap is the system's, never one found first on PATH (a project's
// node_modules/.bin, a directory put before /usr/bin): doctor's trial
// (`bwrap --version`) and the backend a run picks (31.3).
func TestBwrapIsTheSystemsNotPATHs(t *testing.T) {
	marker, _ := plantFakes(t, "bwrap", "true")
	ck := trial(helperBin, ModeBwrap)
	assertNotRun(t, marker, "doctor's bwrap trial")
	if !ck.OK {
		t.Logf("bwrap trial: %+v", ck)
	}
	s := &Sandbox{}
	if m, err := s.pickBackend(ModeBwrap); err != nil || m != ModeBwrap || !strings.HasPrefix(s.bwrap, "/usr/") && !strings.HasPrefix(s.bwrap, "/bin/") {
		t.Errorf("pickBackend: %s %q %v, want the system's bwrap", m, s.bwrap, err)
	}
	_ = deniedExecCheck(helperBin, []Mode{ModeNS})
	assertNotRun(t, marker, "doctor's denied_executables check")
}

// The toolchain view reads go's settings from where go reads them; no go
// runs on the host (a project's go on PATH would, with the person's
// environment), and the person's `go env -w` file still counts (31.3).
func TestToolchainsRunNoGo(t *testing.T) {
	marker, _ := plantFakes(t, "go")
	home := t.TempDir()
	env := map[string]string{"HOME": home, "PATH": os.Getenv("PATH"), "XDG_CONFIG_HOME": filepath.Join(home, "cfg")}
	getenv := func(k string) string { return env[k] }
	mustWrite(t, filepath.Join(home, "cfg", "go", "env"), "GOMODCACHE=/opt/mods\nGOFLAGS=-tags=x\n# a comment\ngoproxy=ignored\n")
	gs := goEnv(getenv, "GOMODCACHE", "GOFLAGS", "GOPROXY")
	assertNotRun(t, marker, "the toolchain view")
	if gs["GOMODCACHE"] != "/opt/mods" || gs["GOFLAGS"] != "-tags=x" || gs["GOPROXY"] != "" {
		t.Errorf("from the go env file: %v", gs)
	}
	env["GOFLAGS"] = "-mod=mod"
	env["GOENV"] = "off"
	gs = goEnv(getenv, "GOMODCACHE", "GOFLAGS")
	if gs["GOMODCACHE"] != filepath.Join(home, "go", "pkg", "mod") || gs["GOFLAGS"] != "-mod=mod" {
		t.Errorf("environment and defaults: %v", gs)
	}
	env["GOPATH"] = "/srv/gp:/srv/other"
	if got := goEnv(getenv, "GOMODCACHE")["GOMODCACHE"]; got != "/srv/gp/pkg/mod" {
		t.Errorf("GOMODCACHE from GOPATH: %q", got)
	}
	_ = DetectToolchains(home, getenv)
	assertNotRun(t, marker, "DetectToolchains")
}

// The person's git identity is asked of the system's git only.
func TestGitIdentityRunsNoPATHGit(t *testing.T) {
	marker, project := plantFakes(t, "git")
	_, _ = GitIdentity(project)
	assertNotRun(t, marker, "GitIdentity")
}

// A multi-call binary that is not the system's own (in a directory anyone
// can write) is not run to list its applets: it is denied whole.
func TestDeniedAppletsRunNoUntrustedBinary(t *testing.T) {
	marker := filepath.Join(t.TempDir(), "ran-on-host")
	dir := t.TempDir()
	if err := os.Chmod(dir, 0o777); err != nil {
		t.Fatal(err)
	}
	bb := filepath.Join(dir, "busybox")
	mustWrite(t, bb, "#!/bin/sh\ntouch '"+marker+"'\necho ls\n")
	if err := os.Chmod(bb, 0o755); err != nil {
		t.Fatal(err)
	}
	if got := providesApplet(bb, []string{"nc"}); got != "nc" {
		t.Errorf("an untrusted busybox: provides %q, want it denied as nc", got)
	}
	assertNotRun(t, marker, "the denied-applet listing")
}
