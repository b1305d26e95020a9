package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sentinelhq/sentinel/cmd/sentinel/internal/e2etest"
	"github.com/sentinelhq/sentinel/internal/config"
)

// `sentinel config trust` in a place that is not a git repository trusts
// its .sentinel/policy.toml and templates.toml as they are, saying so,
// even with no config.toml there.
func TestConfigTrustTrustsAPlacesFiles(t *testing.T) {
	t.Setenv("XDG_STATE_HOME", t.TempDir())
	root := t.TempDir()
	tpl := filepath.Join(root, ".sentinel", "templates.toml")
	e2etest.WriteFile(t, tpl, "[[template]]\nid = \"t-1\"\nhost = \"a.example\"\n")
	var out bytes.Buffer
	if err := configTrust(&out, root); err != nil {
		t.Fatal(err)
	}
	sum, _, _ := config.HashFile(tpl)
	if !config.FileTrusted(root, "templates.toml", sum) || !strings.Contains(out.String(), "trusted "+tpl) {
		t.Fatalf("templates.toml not trusted: %s", out.String())
	}
	os.Remove(tpl)
	if err := configTrust(&out, root); err == nil || !strings.Contains(err.Error(), "nothing to trust") {
		t.Fatalf("nothing there: %v", err)
	}
}
