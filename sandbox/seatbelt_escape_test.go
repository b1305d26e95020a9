package sandbox

import (
	"context"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"testing"
)

// TestSeatbeltEscape runs shell commands under the rendered profile with
// /usr/bin/sandbox-exec and checks each attempt to leave it fails while
// the workspace stays usable. It needs macOS: on any other system it
// skips, and it has not yet run on a real Mac (see README, "On macOS");
// .github/workflows/macos.yml runs it on hosted macOS runners.
func TestSeatbeltEscape(t *testing.T) {
	if runtime.GOOS != "darwin" {
		t.Skip("needs macOS's /usr/bin/sandbox-exec; the profile itself is checked on every platform by TestSeatbeltProfileIsTheLinuxPlan")
	}
	root, err := filepath.EvalSymlinks(t.TempDir()) // /var/folders/… is /private/var/folders/…
	if err != nil {
		t.Fatal(err)
	}
	home := filepath.Join(root, "home")
	ws := filepath.Join(root, "ws")
	for _, d := range []string{filepath.Join(home, ".ssh"), filepath.Join(ws, ".git", "hooks")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	secret := filepath.Join(home, ".ssh", "id_ed25519")
	if err := os.WriteFile(secret, []byte("SECRET"), 0o600); err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0") // a loopback service that is not the proxy
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			c.Close()
		}
	}()
	port := strconv.Itoa(ln.Addr().(*net.TCPAddr).Port)

	p := DefaultProfile(ws, home)
	p.Readable = append(p.Readable, home) // the hidden list must win over a readable home
	sbx, err := Prepare(p, Options{Mode: ModeAuto})
	if err != nil {
		t.Fatal(err)
	}
	defer sbx.Close()
	run := func(script string) error {
		cmd, err := sbx.Command(context.Background(), ws, "/bin/sh", "-c", script)
		if err != nil {
			t.Fatal(err)
		}
		out, err := cmd.CombinedOutput()
		t.Logf("%s → %v\n%s", script, err, out)
		return err
	}
	if err := run("echo ok > " + filepath.Join(ws, "made") + " && cat " + filepath.Join(ws, "made")); err != nil {
		t.Fatalf("the workspace is not usable under the profile: %v", err)
	}
	for what, script := range map[string]string{
		"read a credential under a readable home": "cat " + secret,
		"write outside the writable roots":        "echo x > " + filepath.Join(home, "planted"),
		"write a git hook":                        "echo x > " + filepath.Join(ws, ".git", "hooks", "pre-commit"),
		"rename .git away from its rules":         "mv " + filepath.Join(ws, ".git") + " " + filepath.Join(ws, "g2"),
		"reach a loopback service not the proxy":  "/usr/bin/nc -z -w 3 127.0.0.1 " + port,
		"send Apple Events":                       "/usr/bin/osascript -e 'tell application \"Finder\" to get name'",
		"read the Keychain":                       "/usr/bin/security find-generic-password -s 'Claude Code-credentials'",
		"see another process":                     "/bin/ps -o comm= -p 1 | grep .",
		"write to the shared /tmp":                "echo x > /tmp/sentinel-escape-" + strconv.Itoa(os.Getpid()),
	} {
		if err := run(script); err == nil {
			t.Errorf("%s: allowed (%s)", what, script)
		}
	}
	if b, _ := os.ReadFile(filepath.Join(ws, ".git", "hooks", "pre-commit")); len(b) > 0 {
		t.Error("a git hook was written")
	}
	if _, err := exec.LookPath("/usr/bin/sandbox-exec"); err != nil {
		t.Errorf("sandbox-exec vanished: %v", err)
	}
}
