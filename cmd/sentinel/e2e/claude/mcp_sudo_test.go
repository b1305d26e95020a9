//go:build linux

package claude

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/sentinelhq/sentinel/cmd/sentinel/internal/e2etest"
)

// TestMCPSudoEditThroughTheRootHelper: the real `sentinel mcp` running as
// the unprivileged sentinel-ci edits a root-owned file its root helper
// lists, and nothing else: the real `sentinel mcp sudo-helper` runs as root.
func TestMCPSudoEditThroughTheRootHelper(t *testing.T) {
	t.Parallel() // it waits on the helper and the server and changes no process-wide state
	if os.Geteuid() != 0 {
		t.Skip("needs root: the helper runs as root, the server as sentinel-ci")
	}
	u, err := user.Lookup("sentinel-ci")
	if err != nil {
		t.Skip("no user sentinel-ci (useradd -m sentinel-ci)")
	}
	uid, _ := strconv.Atoi(u.Uid)
	gid, _ := strconv.Atoi(u.Gid)
	base, err := os.MkdirTemp("", "sentinel-mcp-sudo-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(base) })
	os.Chmod(base, 0o755)
	dir := func(name string, owner int) string {
		p := filepath.Join(base, name)
		if err := os.Mkdir(p, 0o755); err != nil {
			t.Fatal(err)
		}
		os.Chown(p, owner, owner)
		return p
	}
	etc, cfgDir, bin := dir("etc", 0), dir("cfg", 0), dir("bin", 0)
	run, srvDir := dir("run", 0), dir("srv", uid)
	os.Chown(srvDir, uid, gid)
	work := filepath.Join(srvDir, "work")
	os.Mkdir(work, 0o755)
	os.Chown(work, uid, gid)
	site, other := filepath.Join(etc, "site.json"), filepath.Join(etc, "other.json")
	for p, body := range map[string]string{site: `{"listen": 80}`, other: `{"o": 1}`} {
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	exe := filepath.Join(bin, "sentinel")
	b, err := os.ReadFile(e2etest.Bin)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(exe, b, 0o755); err != nil {
		t.Fatal(err)
	}

	// The root helper, listing only site.json.
	hcfg := filepath.Join(cfgDir, "mcp-sudo.toml")
	audit := filepath.Join(base, "sudo-audit.log")
	e2etest.WriteFile(t, hcfg, fmt.Sprintf("user = \"sentinel-ci\"\nfiles = [%q]\nbackup_dir = %q\naudit = %q\n", site, filepath.Join(base, "backups"), audit))
	sock := filepath.Join(run, "sudo.sock")
	helper := exec.Command(exe, "mcp", "sudo-helper", "--config", hcfg, "--socket", sock)
	var helperErr strings.Builder
	helper.Stderr = &helperErr
	if err := helper.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { helper.Process.Signal(syscall.SIGTERM); helper.Wait() })
	e2etest.Eventually(t, "the helper's socket", func() bool {
		fi, err := os.Stat(sock)
		return err == nil && fi.Mode()&os.ModeSocket != 0 && fi.Mode().Perm() == 0o600
	}, helperErr.String)

	// The server as sentinel-ci; its own config names both files.
	config := filepath.Join(srvDir, "mcp.toml")
	e2etest.WriteFile(t, config, fmt.Sprintf("allowed_commands = [\"ls\"]\naudit = %q\n\n[[paths]]\npath = %q\naccess = \"rw\"\n\n[sudo]\nsocket = %q\nfiles = [%q, %q]\n",
		filepath.Join(srvDir, "audit.jsonl"), work, sock, site, other))
	os.Chown(config, uid, gid)
	cmd := exec.Command(exe, "mcp", "--config", config)
	cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: uint32(uid), Gid: uint32(gid)}}
	cmd.Env = []string{"PATH=/usr/bin:/bin", "HOME=" + srvDir, "XDG_STATE_HOME=" + filepath.Join(srvDir, "state"), "XDG_CONFIG_HOME=" + filepath.Join(srvDir, "config"), "XDG_RUNTIME_DIR=" + srvDir}
	cmd.Dir = srvDir
	ctx := context.Background()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "check"}, nil).Connect(ctx, &mcp.CommandTransport{Command: cmd}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	edit := func(path, content string) (string, bool) {
		t.Helper()
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "edit", Arguments: map[string]any{"path": path, "content": content}})
		if err != nil {
			t.Fatalf("edit %s: %v", path, err)
		}
		var sb strings.Builder
		for _, c := range res.Content {
			if tc, ok := c.(*mcp.TextContent); ok {
				sb.WriteString(tc.Text)
			}
		}
		return sb.String(), res.IsError
	}
	if txt, isErr := edit(site, `{"listen": 443}`); isErr {
		t.Fatalf("the listed root file: %s", txt)
	}
	fi, _ := os.Stat(site)
	if b, _ := os.ReadFile(site); string(b) != `{"listen": 443}` || fi.Sys().(*syscall.Stat_t).Uid != 0 || fi.Mode().Perm() != 0o644 {
		t.Fatalf("site.json after the edit: %q %v", b, fi.Mode())
	}
	for _, p := range []string{other, etc + "/x/../site.json", "/etc/passwd"} {
		if txt, isErr := edit(p, `{"pwned": 1}`); !isErr || !strings.Contains(txt, "refused [") {
			t.Errorf("edit %s: want a refusal, got %s", p, txt)
		}
	}
	for p, want := range map[string]string{other: `{"o": 1}`, site: `{"listen": 443}`} {
		if b, _ := os.ReadFile(p); string(b) != want {
			t.Fatalf("%s after the refusals: %q", p, b)
		}
	}
	if a, _ := os.ReadFile(audit); !strings.Contains(string(a), `"uid":`+u.Uid) || !strings.Contains(string(a), "not listed") {
		t.Fatalf("the helper's audit:\n%s", a)
	}
}
