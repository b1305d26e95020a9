//go:build unix

package mcpserver

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The starter config in the README parses (with its paths pointed at
// directories that exist here).
func TestReadmeStarterConfig(t *testing.T) {
	t.Parallel()
	b, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	s := string(b)
	i := strings.Index(s, "## Any MCP client: `sentinel mcp`")
	if i < 0 {
		t.Fatal("the README has no sentinel mcp section")
	}
	s = s[i:]
	start := strings.Index(s, "```toml\n")
	end := strings.Index(s[start+8:], "```")
	src := s[start+8 : start+8+end]
	dir := t.TempDir()
	for _, p := range []string{"/srv/app", "/var/log/app"} {
		d := filepath.Join(dir, p)
		os.MkdirAll(d, 0o755)
		src = strings.ReplaceAll(src, `"`+p+`"`, `"`+d+`"`)
	}
	if _, err := ParseConfig("README.md", src); err != nil {
		t.Fatal(err)
	}
}
