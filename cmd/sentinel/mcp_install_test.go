package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sentinelhq/sentinel/internal/mcpserver"
	"github.com/sentinelhq/sentinel/internal/tomlquote"
)

// installFixture is a config (project rw, docs r, token_env) and a token
// file path, all under a temp dir.
func installFixture(t *testing.T, extra string) (dir, config, tokenFile, project, docs string) {
	t.Helper()
	dir, _ = filepath.EvalSymlinks(t.TempDir())
	project, docs = filepath.Join(dir, "proj"), filepath.Join(dir, "docs")
	for _, d := range []string{project, docs} {
		if err := os.MkdirAll(d, 0o700); err != nil {
			t.Fatal(err)
		}
	}
	config = filepath.Join(dir, "mcp.toml")
	src := extra + "\n[[paths]]\npath = " + tomlquote.String(project) + "\naccess = \"rw\"\n\n[[paths]]\npath = " + tomlquote.String(docs) + "\naccess = \"r\"\n"
	if err := os.WriteFile(config, []byte(src), 0o600); err != nil {
		t.Fatal(err)
	}
	return dir, config, filepath.Join(dir, "cfg", "mcp-token.env"), project, docs
}

func unitLines(text string) map[string][]string {
	m := map[string][]string{}
	for _, l := range strings.Split(text, "\n") {
		if k, v, ok := strings.Cut(l, "="); ok && !strings.HasPrefix(l, "#") {
			m[k] = append(m[k], v)
		}
	}
	return m
}

func TestMCPUnitIsHardenedAndPassesTheTokenFromAFile(t *testing.T) {
	dir, config, tokenFile, project, docs := installFixture(t, `token_env = "SENTINEL_MCP_TOKEN"`)
	state := filepath.Join(dir, "state")
	text, notes, err := mcpPrepare(mcpScope{}, "/usr/local/bin/sentinel", config, "127.0.0.1:8765", tokenFile, state)
	if err != nil {
		t.Fatal(err)
	}
	l := unitLines(text)
	for k, v := range map[string]string{
		"ExecStart":       "/usr/local/bin/sentinel mcp --config " + config + " --http 127.0.0.1:8765",
		"ExecReload":      "/bin/kill -HUP $MAINPID", // a reload keeps the sessions (mcpserver reload.go)
		"EnvironmentFile": tokenFile, "NoNewPrivileges": "yes", "ProtectSystem": "strict",
		"ProtectHome": "yes", "PrivateTmp": "no", // the config lies in /tmp here "LockPersonality": "yes",
		"RestrictAddressFamilies": "AF_UNIX AF_INET AF_INET6 AF_NETLINK", "WantedBy": "default.target",
	} {
		if len(l[k]) != 1 || l[k][0] != v {
			t.Errorf("%s=%v, want %s", k, l[k], v)
		}
	}
	rw := strings.Join(l["ReadWritePaths"], " ")
	if !strings.Contains(rw, "-"+project) || !strings.Contains(rw, "-"+state) || strings.Contains(rw, docs) {
		t.Errorf("ReadWritePaths %q: want the rw project and the state dir, not the r path", rw)
	}
	if _, ok := l["RestrictNamespaces"]; ok {
		t.Error("RestrictNamespaces would break the sandbox")
	}
	st, err := os.Stat(tokenFile)
	if err != nil || st.Mode().Perm() != 0o600 {
		t.Fatalf("token file: %v %v", st, err)
	}
	b, _ := os.ReadFile(tokenFile)
	tok, ok := strings.CutPrefix(strings.TrimSpace(string(b)), "SENTINEL_MCP_TOKEN=")
	if !ok || len(tok) < 16 || len(notes) != 1 {
		t.Fatalf("token file %q, notes %v", b, notes)
	}
	// The token the config resolves from that file is the one the server uses.
	cfg, err := mcpserver.LoadConfig(config)
	if err != nil {
		t.Fatal(err)
	}
	if got, err := cfg.ResolveToken(func(string) string { return tok }); err != nil || got != tok {
		t.Fatalf("token %q %v", got, err)
	}
	// A second install keeps the token.
	if _, _, err := mcpPrepare(mcpScope{}, "/usr/local/bin/sentinel", config, "127.0.0.1:8765", tokenFile, state); err != nil {
		t.Fatal(err)
	}
	if b2, _ := os.ReadFile(tokenFile); string(b2) != string(b) {
		t.Fatal("a second install replaced the token")
	}
}

func TestMCPUnitProtectHomeFollowsThePaths(t *testing.T) {
	if !underHome("/home/u/src") || !underHome("/root/x") || underHome("/srv/x") || underHome("/homework") {
		t.Fatal("underHome")
	}
	text, err := mcpUnitText(mcpUnit{Exe: "/usr/bin/sentinel", Config: "/home/u/mcp.toml", Addr: "127.0.0.1:1", RW: []string{"/home/u/p"}, Home: true, System: true})
	if err != nil {
		t.Fatal(err)
	}
	l := unitLines(text)
	if l["ProtectHome"][0] != "read-only" || l["PrivateTmp"][0] != "yes" || l["ReadWritePaths"][0] != "-/home/u/p" || l["WantedBy"][0] != "multi-user.target" {
		t.Fatalf("unit:\n%s", text)
	}
	if _, err := mcpUnitText(mcpUnit{Exe: "/a b/sentinel", Config: "/c", Addr: "127.0.0.1:1"}); err == nil {
		t.Fatal("a path with a space was taken")
	}
}

func TestMCPInstallRefusals(t *testing.T) {
	_, config, tokenFile, _, _ := installFixture(t, "")
	if _, _, err := mcpPrepare(mcpScope{}, "/x", config, "127.0.0.1:8765", tokenFile, "/s"); err == nil || !strings.Contains(err.Error(), "token_env") {
		t.Errorf("no token: %v", err)
	}
	_, config, tokenFile, _, _ = installFixture(t, `token_env = "T"`)
	if err := os.MkdirAll(filepath.Dir(tokenFile), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(tokenFile, []byte("T=0123456789abcdef0123\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, _, err := mcpPrepare(mcpScope{}, "/x", config, "127.0.0.1:8765", tokenFile, "/s"); err == nil || !strings.Contains(err.Error(), "chmod 600") {
		t.Errorf("readable token file: %v", err)
	}
	if err := (mcpScope{system: true}).check(1000); err == nil || !strings.Contains(err.Error(), "root") {
		t.Errorf("--system as a user: %v", err)
	}
	if err := (mcpScope{system: true}).check(0); err != nil {
		t.Error(err)
	}
}

func TestMCPUnitPassesSystemdAnalyzeVerify(t *testing.T) {
	sa, err := exec.LookPath("systemd-analyze")
	if err != nil {
		t.Skip("systemd-analyze is not installed (apt-get install -y systemd)")
	}
	dir, config, tokenFile, _, _ := installFixture(t, `token_env = "SENTINEL_MCP_TOKEN"`)
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	text, _, err := mcpPrepare(mcpScope{}, exe, config, "127.0.0.1:8765", tokenFile, dir)
	if err != nil {
		t.Fatal(err)
	}
	unit := filepath.Join(dir, mcpUnitName)
	if err := os.WriteFile(unit, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command(sa, "verify", "--man=no", unit).CombinedOutput()
	if err != nil || len(strings.TrimSpace(string(out))) > 0 {
		t.Fatalf("systemd-analyze verify: %v\n%s\nunit:\n%s", err, out, text)
	}
}

func TestMCPPrepareReadOnlyHomeWhenTheServerNeedsIt(t *testing.T) {
	dir, config, tokenFile, _, _ := installFixture(t, `token_env = "SENTINEL_MCP_TOKEN"`)
	text, _, err := mcpPrepare(mcpScope{}, "/home/u/bin/sentinel", config, "127.0.0.1:8765", tokenFile, dir)
	if err != nil {
		t.Fatal(err)
	}
	if got := unitLines(text)["ProtectHome"]; len(got) != 1 || got[0] != "read-only" {
		t.Fatalf("binary under /home: ProtectHome=%v, want read-only", got)
	}
}
