package claude

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/sentinelhq/sentinel/internal/agentutil"
)

// The host's managed-mcp.json (the administrator's servers, which /etc
// being readable would give the run as they are) reaches an in-place run
// as a place at ManagedMCPPath whose stdio servers start through the
// shell; an http server stays as it was; no host file, no place. Swaps a
// package variable: not parallel.
func TestTheHostsManagedMCPServersStartThroughTheShell(t *testing.T) {
	t.Setenv("CLAUDE_CONFIG_DIR", "")
	host := filepath.Join(t.TempDir(), "managed-mcp.json")
	old := hostManagedMCP
	hostManagedMCP = host
	t.Cleanup(func() { hostManagedMCP = old })
	prepare := func() Needs {
		t.Helper()
		home, ws, policy := t.TempDir(), t.TempDir(), t.TempDir()
		a := New(Options{Mode: Interactive, Sentinel: "/bin/true"})
		n, err := a.Prepare(RunPaths{Home: home, Workspace: ws, StateDir: filepath.Join(t.TempDir(), "c"), Placed: true, PolicyDir: policy})
		if err != nil {
			t.Fatal(err)
		}
		return n
	}
	if n := prepare(); n.Places[ManagedMCPPath] != "" {
		t.Errorf("no host managed-mcp.json, yet the run shows %s", n.Places[ManagedMCPPath])
	}
	put(t, host, `{"mcpServers": {"corp": {"type": "stdio", "command": "corp-mcp", "args": ["--serve"]}, "web": {"type": "http", "url": "https://mcp.example/"}}}`)
	n := prepare()
	file := n.Places[ManagedMCPPath]
	if file == "" {
		t.Fatalf("the run shows no %s: Claude Code reads the host's, whose servers it starts unscoped", ManagedMCPPath)
	}
	cfg, err := readSettings(file)
	if err != nil {
		t.Fatal(err)
	}
	servers, _ := cfg["mcpServers"].(map[string]any)
	corp, _ := servers["corp"].(map[string]any)
	if corp["command"] != agentutil.ScopeShell || !reflect.DeepEqual(corp["args"], []any{"-c", agentutil.ScopeScript, "corp-mcp", "--serve"}) {
		t.Errorf("the administrator's stdio server = %v, want corp-mcp --serve through %s", corp, agentutil.ScopeShell)
	}
	if web, _ := servers["web"].(map[string]any); web["url"] != "https://mcp.example/" || web["command"] != nil {
		t.Errorf("the http server = %v, want it as it was", web)
	}
	put(t, host, `{"mcpServers": `)
	a := New(Options{Mode: Interactive, Sentinel: "/bin/true"})
	if _, err := a.Prepare(RunPaths{Home: t.TempDir(), Workspace: t.TempDir(), StateDir: filepath.Join(t.TempDir(), "c"), Placed: true, PolicyDir: t.TempDir()}); err == nil {
		t.Error("a host managed-mcp.json that does not read is no error: its servers would reach the run unscoped")
	}
}

// A host managed-mcp.json this user cannot read still fails the run
// (closed: its servers cannot be rewritten), with one line that names the
// file and the fix. A folder at its path stands for an unreadable file
// (root reads a mode-000 file). Swaps a package variable: not parallel.
func TestAnUnreadableManagedMCPFileIsNamedWithItsFix(t *testing.T) {
	t.Setenv("CLAUDE_CONFIG_DIR", "")
	host := filepath.Join(t.TempDir(), "managed-mcp.json")
	if err := os.Mkdir(host, 0o755); err != nil {
		t.Fatal(err)
	}
	old := hostManagedMCP
	hostManagedMCP = host
	t.Cleanup(func() { hostManagedMCP = old })
	a := New(Options{Mode: Interactive, Sentinel: "/bin/true"})
	_, err := a.Prepare(RunPaths{Home: t.TempDir(), Workspace: t.TempDir(), StateDir: filepath.Join(t.TempDir(), "c"), Placed: true, PolicyDir: t.TempDir()})
	if err == nil {
		t.Fatal("an unreadable host managed-mcp.json is no error: the run would go on with its servers unscoped")
	}
	msg := err.Error()
	if strings.Contains(msg, "\n") || strings.Count(msg, host) < 2 || !strings.Contains(msg, "chmod a+r") {
		t.Errorf("the error %q is not one line naming %s and its fix (chmod a+r)", msg, host)
	}
}

// The managed policy adds no plugin marketplace, whatever the host's own
// policy allows: Claude Code 2.1.332 loaded a plugin from a marketplace
// the project's settings named (a directory in the repository) at start,
// with no dialog, and started its MCP server directly — measured with the
// real CLI (docs/replay/31-scope29.md, scope30's rows).
func TestThePolicyAddsNoPluginMarketplace(t *testing.T) {
	a := New(Options{Mode: Interactive, Sentinel: "/bin/true"})
	host := map[string]any{"strictKnownMarketplaces": []any{map[string]any{"source": "github", "repo": "corp/plugins"}}}
	for _, h := range []map[string]any{nil, host} {
		m, err := a.ManagedSettings(h, nil)
		if err != nil {
			t.Fatal(err)
		}
		if got, ok := m["strictKnownMarketplaces"].([]any); !ok || len(got) != 0 {
			t.Errorf("host %v: strictKnownMarketplaces = %#v, want [] (no marketplace may be added)", h, m["strictKnownMarketplaces"])
		}
	}
}
