package sudoedit

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

func TestUnitsPassSystemdAnalyzeVerify(t *testing.T) {
	sa, err := exec.LookPath("systemd-analyze")
	if err != nil {
		t.Skip("systemd-analyze is not installed (apt-get install -y systemd)")
	}
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	sock, svc := Units(exe, "root", DefaultConfig, DefaultSocket)
	for _, want := range []string{"SocketMode=0600", "ListenStream=" + DefaultSocket} {
		if !strings.Contains(sock, want) {
			t.Errorf("the socket unit lacks %s", want)
		}
	}
	for _, want := range []string{"NoNewPrivileges=yes", "PrivateNetwork=yes", "mcp sudo-helper --config " + DefaultConfig,
		"MemoryMax=", "TasksMax=", "LimitNOFILE="} {
		if !strings.Contains(svc, want) {
			t.Errorf("the service unit lacks %s", want)
		}
	}
	dir := t.TempDir()
	for name, text := range map[string]string{SocketUnit: sock, ServiceUnit: svc} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	out, err := exec.Command(sa, "verify", "--man=no", filepath.Join(dir, SocketUnit), filepath.Join(dir, ServiceUnit)).CombinedOutput()
	if err != nil || len(strings.TrimSpace(string(out))) > 0 {
		t.Fatalf("systemd-analyze verify: %v\n%s", err, out)
	}
}
