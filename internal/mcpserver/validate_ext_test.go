//go:build unix

package mcpserver

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

func TestEditValidatesWithPrograms(t *testing.T) {
	t.Parallel()
	bin := helper(t)
	f := newFixture(t)
	// nginx's check runs what a config names: only for a client that may
	// run code (TestNginxCheckOnlyForAClientThatMayRunCode).
	cs, _ := stdioSession(t, mustConfig(t, f.config(`exec_mode = "unrestricted"`)), Options{Helper: bin})
	leftovers := func() {
		t.Helper()
		m, _ := filepath.Glob(filepath.Join(f.rw, "*", "sentinel-check-*"))
		m2, _ := filepath.Glob(filepath.Join(f.rw, "sentinel-check-*"))
		if len(m)+len(m2) > 0 {
			t.Fatalf("a check copy was left behind: %v %v", m, m2)
		}
	}
	type tc struct {
		check, file, good, bad, want string
	}
	cases := []tc{
		{"python", "app.py", "import os\nopen('" + f.rw + "/ran', 'w')\n", "def f(:\n", "SyntaxError"},
		{"systemd", "web.service", "[Unit]\nDescription=web\n[Service]\nExecStart=/bin/true\n", "[Service]\nExecStart=relative-program\n", "web.service"},
		{"nginx", "nginx/site.conf", "events {}\nhttp { server { listen 127.0.0.1:18080; } }\n", "http { server { listen; }\n", "nginx"},
	}
	for _, c := range cases {
		t.Run(c.check, func(t *testing.T) {
			prog := map[string]string{"python": "python3", "systemd": "systemd-analyze", "nginx": "nginx"}[c.check]
			if _, err := exec.LookPath(prog); err != nil {
				t.Skipf("%s is not installed", prog)
			}
			p := filepath.Join(f.rw, c.file)
			if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil { // nginx/site.conf
				t.Fatal(err)
			}
			got := mustAllow(t, cs, "edit", map[string]any{"path": p, "content": c.good})
			if !strings.Contains(got, "valid "+c.check) {
				t.Fatalf("no %s check named: %s", c.check, got)
			}
			got = mustRefuse(t, cs, "edit", map[string]any{"path": p, "content": c.bad}, ClassValidation)
			if !strings.Contains(got, c.want) || strings.Contains(got, "sentinel-check-") {
				t.Fatalf("the refusal does not show the checker's words about %s: %s", c.file, got)
			}
			if b, _ := os.ReadFile(p); string(b) != c.good {
				t.Fatalf("a failed %s check changed the file: %q", c.check, b)
			}
			leftovers()
		})
	}
	if _, err := os.Stat(filepath.Join(f.rw, "ran")); err == nil {
		t.Fatal("the python check ran the code instead of compiling it")
	}
}

// nginx -t loads the modules a config names (load_module): the check is
// running code, so a client that may not run code here — the default
// allowlist, exec disabled — is refused it, and the file is not written.
func TestNginxCheckOnlyForAClientThatMayRunCode(t *testing.T) {
	t.Parallel()
	bin := helper(t)
	for name, extra := range map[string]string{"allowlist": "", "exec disabled": "exec_mode = \"unrestricted\"\ndisabled_ops = [\"exec\"]"} {
		t.Run(name, func(t *testing.T) {
			f := newFixture(t)
			cs, _ := stdioSession(t, mustConfig(t, f.config(extra)), Options{Helper: bin})
			p := filepath.Join(f.rw, "nginx", "site.conf")
			write(t, p, "events {}\n")
			got := mustRefuse(t, cs, "edit", map[string]any{"path": p, "content": "load_module " + f.rw + "/x.so;\nevents {}\n"}, ClassValidation)
			if !strings.Contains(got, "may not run code") {
				t.Fatalf("refused for another reason: %s", got)
			}
			if b, _ := os.ReadFile(p); string(b) != "events {}\n" {
				t.Fatalf("the config was written although its check was refused: %q", b)
			}
		})
	}
}
