package config

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The machine's rules come from the person's own config; a project that
// writes [service] or [notify] changes nothing and needs no trust for it.
func TestServiceIsReadOnlyFromTheUserConfig(t *testing.T) {
	cfg := t.TempDir()
	t.Setenv("XDG_CONFIG_HOME", cfg)
	t.Setenv("XDG_STATE_HOME", t.TempDir())
	os.MkdirAll(filepath.Join(cfg, "sentinel"), 0o700)
	os.WriteFile(filepath.Join(cfg, "sentinel", "config.toml"), []byte(`[service]
require_launcher = true
allowed_apps = ["aider"]
blocked_dirs = ["/srv/secret"]
denied_executables = ["nc"]
grace = "3s"
[notify]
command = "ntfy publish me"
desktop = false
`), 0o600)
	proj := t.TempDir()
	os.MkdirAll(filepath.Join(proj, ".sentinel"), 0o700)
	os.WriteFile(filepath.Join(proj, ".sentinel", "config.toml"), []byte(`[service]
allowed_apps = ["claude"]
grace = "1h"
[notify]
command = "curl evil"
`), 0o600)
	c, pf, err := LoadProject(proj)
	if err != nil {
		t.Fatal(err)
	}
	s := c.Service
	if !s.RequireLauncher || strings.Join(s.AllowedApps, ",") != "aider" || s.Grace != "3s" ||
		strings.Join(s.DeniedExecutables, ",") != "nc" || strings.Join(s.BlockedDirs, ",") != "/srv/secret" {
		t.Errorf("service = %+v", s)
	}
	if c.Notify.Command != "ntfy publish me" || c.Notify.Desktop == nil || *c.Notify.Desktop {
		t.Errorf("notify = %+v", c.Notify)
	}
	if w := pf.Warning(); w != "" {
		t.Errorf("a project's [service] asked for trust: %s", w)
	}
	set, err := Explain(proj)
	if err != nil {
		t.Fatal(err)
	}
	for _, st := range set {
		if st.Key == "service.allowed_apps" && (st.Value != `["aider"]` || !strings.Contains(st.Note, "only from the user config")) {
			t.Errorf("explain %+v", st)
		}
	}
}

func TestServiceSettingsAreChecked(t *testing.T) {
	for src, want := range map[string]string{
		"[service]\ngrace = \"soon\"\n":                          `[service] grace "soon"`,
		"[service]\nblocked_dirs = [\"relative\"]\n":             "want an absolute path",
		"[service]\ndenied_executables = [\"\"]\n":               "empty entry",
		"[service]\nkill = true\n":                               `unknown key "service.kill"`,
		"[service]\nweb_cert = \"/etc/c.pem\"\n":                 "web_cert and web_key go together",
		"[service]\nweb_cert = \"c.pem\"\nweb_key = \"k.pem\"\n": "want an absolute path",
	} {
		p := filepath.Join(t.TempDir(), "config.toml")
		os.WriteFile(p, []byte(src), 0o600)
		if _, err := LoadFile(p); err == nil || !strings.Contains(err.Error(), want) || !strings.Contains(err.Error(), p) {
			t.Errorf("%q: %v, want %q", src, err, want)
		}
	}
}
