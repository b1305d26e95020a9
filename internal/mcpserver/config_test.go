//go:build unix

package mcpserver

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Every key, given a bad value, is an error naming the file, the line that
// sets it and the fix.
func TestBadConfigEachKey(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	rw := filepath.Join(dir, "rw")
	os.MkdirAll(filepath.Join(rw, "sub"), 0o755)
	good := "[[paths]]\npath = \"" + rw + "\"\naccess = \"rw\"\n"
	cases := []struct {
		name, src string
		line      int
		want      string
	}{
		{"syntax", "exec_mode = \n" + good, 1, "fix the TOML syntax"},
		{"unknown key", "\n\nexec_mod = \"policy\"\n" + good, 3, `unknown key "exec_mod"`},
		{"unknown key in paths", "[[paths]]\npath = \"" + rw + "\"\nacess = \"rw\"\n", 3, `unknown key "paths.acess"`},
		{"exec_mode", "\nexec_mode = \"yolo\"\n" + good, 2, `use "allowlist", "strict", "policy" or "unrestricted"`},
		{"allowed_commands", "allowed_commands = [\"git\", \"ls; rm\"]\n" + good, 1, "no shell syntax"},
		{"allowed_commands empty", "allowed_commands = [\"  \"]\n" + good, 1, "give a program"},
		{"audit", "audit = \"rel/audit.jsonl\"\n" + good, 1, "give an absolute path"},
		{"disabled_ops", "disabled_ops = [\"help\"]\n" + good, 1, "not an op that can be disabled"},
		{"disabled_ops unknown", "disabled_ops = [\"rm\"]\n" + good, 1, "not an op that can be disabled"},
		{"network", "network = \"host\"\n" + good, 1, `use "none" or "proxy"`},
		{"allow_hosts", "network = \"proxy\"\nallow_hosts = [\"http://x/\"]\n" + good, 2, "give HOST or HOST:PORT"},
		{"allow_hosts without proxy", "allow_hosts = [\"example.com\"]\n" + good, 1, `needs network = "proxy"`},
		{"sandbox", "sandbox = \"off\"\n" + good, 1, "never runs unsandboxed"},
		{"token", "token = \"short\"\n" + good, 1, "at least 16 characters"},
		{"token_env", "token_env = \"A B\"\n" + good, 1, "name of an environment variable"},
		{"token and token_env", "token = \"0123456789abcdef0\"\ntoken_env = \"T\"\n" + good, 2, "keep one"},
		{"paths none", "exec_mode = \"allowlist\"\n", 0, "no [[paths]]"},
		{"paths.path relative", "[[paths]]\npath = \"rel\"\naccess = \"r\"\n", 1, "give an absolute path"},
		{"paths.path missing", "[[paths]]\npath = \"" + filepath.Join(dir, "nope") + "\"\naccess = \"r\"\n", 1, "create it or remove the entry"},
		{"paths.path root", "[[paths]]\npath = \"/\"\naccess = \"r\"\n", 1, "whole filesystem"},
		{"paths.access", "# c\n[[paths]]\npath = \"" + rw + "\"\naccess = \"write\"\n", 2, `use "r" or "rw"`},
		{"paths twice", good + "[[paths]]\npath = \"" + rw + "\"\naccess = \"r\"\n", 4, "listed twice"},
		{"paths r inside rw", good + "[[paths]]\npath = \"" + filepath.Join(rw, "sub") + "\"\naccess = \"r\"\n", 4, "not supported"},
		{"limits.max_read_bytes", good + "[limits]\nmax_read_bytes = -1\n", 5, "positive number"},
		{"limits.max_list_entries", good + "[limits]\nmax_list_entries = -1\n", 5, "positive number"},
		{"limits.max_search_results", good + "[limits]\nmax_search_results = -5\n", 5, "positive number"},
		{"limits.max_output_bytes", good + "[limits]\nmax_output_bytes = -5\n", 5, "positive number"},
		{"limits.exec_timeout", good + "[limits]\nexec_timeout = \"soon\"\n", 5, "give a duration"},
		{"limits type", good + "[limits]\nmax_read_bytes = \"big\"\n", 0, "check the value types"},
		{"services name", good + "[services.\"ng inx\"]\nactions = [\"status\"]\n", 4, "a unit name holds"},
		{"services.unit", good + "[services.web]\nunit = \"-x\"\nactions = [\"status\"]\n", 5, "a unit name holds"},
		{"services.actions", good + "[services.nginx]\nactions = [\"status\", \"mask\"]\n", 5, `action "mask"`},
		{"services no actions", good + "[services.nginx]\nunit = \"nginx\"\n", 4, "has no actions"},
		{"playbooks.kind", good + "[playbooks.health]\nkind = \"script\"\ncommands = [\"df -h\"]\n", 5, `use "diagnostic"`},
		{"playbooks.commands", good + "[playbooks.health]\nkind = \"diagnostic\"\n", 4, "list its commands"},
		{"playbooks.commands empty", good + "[playbooks.health]\nkind = \"diagnostic\"\ncommands = [\" \"]\n", 6, "one non-empty line"},
		{"playbooks.steps", good + "[playbooks.deploy]\nkind = \"procedure\"\n", 4, "list its steps"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			p := filepath.Join(t.TempDir(), "mcp.toml")
			os.WriteFile(p, []byte(tc.src), 0o600)
			_, err := LoadConfig(p)
			if err == nil {
				t.Fatalf("accepted:\n%s", tc.src)
			}
			msg := err.Error()
			prefix := p + ":"
			if tc.line > 0 {
				prefix = p + ":" + itoa(tc.line) + ":"
			}
			if !strings.HasPrefix(msg, prefix) || !strings.Contains(msg, tc.want) {
				t.Fatalf("error %q\nwant prefix %q and %q", msg, prefix, tc.want)
			}
		})
	}
}

func itoa(n int) string {
	s := ""
	for n > 0 {
		s = string(rune('0'+n%10)) + s
		n /= 10
	}
	return s
}

func TestGoodConfigDefaults(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	c := loadConfigText(t, f.config(""))
	if c.ExecMode != ModeAllowlist || c.Network != NetNone || c.Sandbox != "auto" || c.Limits.MaxReadBytes != DefaultMaxReadBytes || c.Limits.ExecTimeoutDuration() != DefaultExecTimeout {
		t.Fatalf("defaults: %+v", c)
	}
}
