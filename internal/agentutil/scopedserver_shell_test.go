//go:build unix

package agentutil

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// A server whose command starts with '-' (found on PATH, or a relative
// path) still starts with its own argv, under dash and under bash (the
// /bin/sh of Debian and of Fedora, Arch, macOS).
func TestScopedServerStartingWithDashRunsUnderEachShell(t *testing.T) {
	old := scopeOS
	scopeOS = "linux"
	defer func() { scopeOS = old }()
	dir := t.TempDir()
	for _, name := range []string{"-srv", "-dir/srv"} {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte("#!/bin/sh\nprintf '%s|' \"$0\" \"$@\"\n"), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	ran := 0
	for _, shell := range []string{"dash", "bash"} {
		sh, err := exec.LookPath(shell)
		if err != nil {
			continue
		}
		ran++
		for _, argv := range [][]string{{"-srv", "a b", "", "$x"}, {"-dir/srv", "--db"}, {"./-dir/srv", "x"}} {
			scoped := ScopedArgv(argv)
			if !IsScoped(scoped) {
				t.Fatalf("ScopedArgv(%q) = %q, not scoped", argv, scoped)
			}
			cmd := exec.Command(sh, scoped[1:]...)
			cmd.Dir = dir
			cmd.Env = append(os.Environ(), "PATH="+dir+":"+os.Getenv("PATH"))
			out, err := cmd.CombinedOutput()
			if err != nil {
				t.Errorf("%s %q: %v: %s", shell, scoped, err, out)
				continue
			}
			want := strings.Join(argv[1:], "|") + "|"
			if got := string(out); !strings.HasSuffix(got, "|"+want) && !(len(argv) == 1 && strings.HasSuffix(got, "|")) {
				t.Errorf("%s %q printed %q, want the args %q", shell, scoped, got, want)
			}
		}
	}
	if ran == 0 {
		t.Skip("neither dash nor bash is installed")
	}
}
