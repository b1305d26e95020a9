package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sentinelhq/sentinel/cmd/sentinel/internal/e2etest"
)

// fakeSystemctl puts a systemctl on a fresh PATH that records its
// arguments, one call a line, and answers with status code.
func fakeSystemctl(t *testing.T, code string) (path, log string) {
	t.Helper()
	bin := t.TempDir()
	log = filepath.Join(t.TempDir(), "calls")
	e2etest.WriteFile(t, filepath.Join(bin, "systemctl"), "#!/bin/sh\necho \"$*\" >> "+log+"\necho 'Failed to connect to bus: No medium found' >&2\nexit "+code+"\n")
	os.Chmod(filepath.Join(bin, "systemctl"), 0o755)
	return bin + ":" + os.Getenv("PATH"), log
}

func TestServiceInstallUninstallStatus(t *testing.T) {
	cfg, rt := t.TempDir(), t.TempDir()
	os.Chmod(rt, 0o700)
	path, log := fakeSystemctl(t, "0")
	env := []string{"PATH=" + path, "XDG_RUNTIME_DIR=" + rt}
	run := func(args ...string) e2etest.Result {
		t.Helper()
		// sentinel sets its own XDG_CONFIG_HOME first; a later one wins.
		return e2etest.Sentinel(t, t.TempDir(), append(env, "XDG_CONFIG_HOME="+cfg), args...)
	}
	unit := filepath.Join(cfg, "systemd", "user", "sentinel.service")

	res := run("service", "install")
	if res.Code != 0 {
		t.Fatalf("install: exit %d: %s%s", res.Code, res.Stdout, res.Stderr)
	}
	b, err := os.ReadFile(unit)
	if err != nil {
		t.Fatalf("install wrote no unit: %v\n%s", err, res.Stdout)
	}
	exe, _ := filepath.EvalSymlinks(e2etest.Bin)
	exe, _ = filepath.Abs(exe)
	if !strings.Contains(string(b), "\nExecStart="+exe+" service\n") || !strings.Contains(string(b), "WantedBy=default.target") {
		t.Fatalf("the unit does not start this binary's service:\n%s", b)
	}
	calls, _ := os.ReadFile(log)
	if string(calls) != "--user daemon-reload\n--user enable --now sentinel.service\n" {
		t.Fatalf("install ran systemctl with:\n%s", calls)
	}

	res = run("service", "status")
	if !strings.Contains(res.Stdout, "unit:    installed at "+unit) || !strings.Contains(res.Stdout, "service: not running") {
		t.Fatalf("status:\n%s%s", res.Stdout, res.Stderr)
	}

	os.Remove(log)
	res = run("service", "uninstall")
	if res.Code != 0 {
		t.Fatalf("uninstall: exit %d: %s%s", res.Code, res.Stdout, res.Stderr)
	}
	if _, err := os.Stat(unit); !os.IsNotExist(err) {
		t.Fatalf("uninstall left the unit: %v", err)
	}
	calls, _ = os.ReadFile(log)
	if string(calls) != "--user disable --now sentinel.service\n--user daemon-reload\n" {
		t.Fatalf("uninstall ran systemctl with:\n%s", calls)
	}
	if res = run("service", "status"); !strings.Contains(res.Stdout, "unit:    not installed") {
		t.Fatalf("status after uninstall:\n%s", res.Stdout)
	}
}

// Without a user manager (systemctl fails, or is not there), install
// writes the unit and says exactly what to run.
func TestServiceInstallWithoutAUserManager(t *testing.T) {
	failing, _ := fakeSystemctl(t, "1")
	for name, path := range map[string]string{"failing systemctl": failing, "no systemctl": t.TempDir()} {
		cfg := t.TempDir()
		res := e2etest.Sentinel(t, t.TempDir(), []string{"PATH=" + path, "XDG_CONFIG_HOME=" + cfg}, "service", "install")
		if res.Code != 0 {
			t.Fatalf("%s: exit %d: %s%s", name, res.Code, res.Stdout, res.Stderr)
		}
		if _, err := os.Stat(filepath.Join(cfg, "systemd", "user", "sentinel.service")); err != nil {
			t.Fatalf("%s: no unit written: %v", name, err)
		}
		if !strings.Contains(res.Stdout, "Not started") || !strings.Contains(res.Stdout, "systemctl --user daemon-reload && systemctl --user enable --now sentinel.service") {
			t.Fatalf("%s: install does not say what to run:\n%s", name, res.Stdout)
		}
	}
}
