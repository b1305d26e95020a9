package sandbox

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
)

// modes lists the backends to attack; bwrap is required when CI=true.
func modes(t *testing.T) []Mode {
	ms := []Mode{ModeNS}
	if _, err := exec.LookPath("bwrap"); err == nil {
		ms = append(ms, ModeBwrap)
	} else if os.Getenv("CI") == "true" {
		t.Fatal("bwrap is not installed (CI=true): apt-get install -y bubblewrap")
	} else {
		t.Log("bwrap not installed: only the ns backend is attacked")
	}
	return ms
}

func mustWrite(t *testing.T, path, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o600); err != nil {
		t.Fatal(err)
	}
}

func serve(t *testing.T, body string) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { io.WriteString(w, body) })}
	go srv.Serve(ln)
	t.Cleanup(func() { srv.Close() })
	return ln.Addr().String()
}

// TestEscape tries, from inside the sandbox, everything a coder should not
// be able to do, and checks both what the attempt saw and what reached disk.
func TestEscape(t *testing.T) {
	marker := fmt.Sprintf("escape-marker-%d", os.Getpid())
	t.Setenv("ESCAPE_SECRET", marker) // Sentinel's own environment must not leak in
	root := t.TempDir()
	home := filepath.Join(root, "home")
	ws := filepath.Join(root, "ws")
	// The real project lives outside /tmp (which the sandbox replaces), so
	// only Landlock stands between the coder and it.
	project := filepath.Join(root, "project")
	if d, err := os.MkdirTemp("/var/tmp", "sentinel-escape-project-"); err == nil {
		project = d
		t.Cleanup(func() { os.RemoveAll(d) })
	}
	state := filepath.Join(root, "sentinel-state")
	creds := map[string]string{}
	for _, c := range []string{".ssh/id_ed25519", ".aws/credentials", ".azure/accessTokens.json", ".kube/config",
		".config/gh/hosts.yml", ".gnupg/private-keys-v1.d/k.key", ".password-store/bank.gpg",
		".docker/config.json", ".netrc", ".git-credentials", ".config/sentinel/config.toml"} {
		mustWrite(t, filepath.Join(home, c), marker)
		creds["read "+c] = filepath.Join(home, c)
	}
	mustWrite(t, filepath.Join(home, "notes.txt"), "home is readable in this test")
	mustWrite(t, filepath.Join(project, "secret.txt"), marker)
	mustWrite(t, filepath.Join(state, "templates.toml"), "")
	mustWrite(t, filepath.Join(ws, ".git/config"), "[core]\n")
	mustWrite(t, filepath.Join(ws, "main.go"), "package main\n")
	if err := os.MkdirAll(filepath.Join(ws, ".git/hooks"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(project, "secret.txt"), filepath.Join(ws, "link-read")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(project, "planted.txt"), filepath.Join(ws, "link-write")); err != nil {
		t.Fatal(err)
	}
	creds["read the real project"] = filepath.Join(project, "secret.txt")
	creds["read through a symlink in the workspace"] = filepath.Join(ws, "link-read")
	hostTmp := filepath.Join(os.TempDir(), fmt.Sprintf("sentinel-escape-%d", os.Getpid()))
	t.Cleanup(func() { os.Remove(hostTmp) })
	writes := map[string]string{
		"write home":                filepath.Join(home, "escaped.txt"),
		"write the real project":    filepath.Join(project, "escaped.txt"),
		"write Sentinel's state":    filepath.Join(state, "templates.toml"),
		"write through a symlink":   filepath.Join(ws, "link-write"),
		"write a hidden credential": filepath.Join(home, ".netrc"),
		"write /etc":                "/etc/sentinel-escaped",
	}
	hostTCP := serve(t, "host")
	allowed := serve(t, "model says "+marker)
	denied := serve(t, "denied host reached "+marker)

	sleeper := exec.Command("sleep", "600")
	sleeper.Env = append(os.Environ(), "SLEEPER_SECRET="+marker)
	if err := sleeper.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { sleeper.Process.Kill(); sleeper.Wait() })

	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	cfg := probeConfig{
		WriteTargets: writes, ReadTargets: creds, Marker: marker, Workspace: ws, HostTCP: hostTCP,
		AllowedURL: "http://" + allowed + "/v1/messages", DeniedURL: "http://" + denied + "/",
		InternalURLs: []string{"http://169.254.169.254/latest/meta-data/", "http://10.0.0.1/", "http://[fd00:ec2::254]/"},
		SleeperPid:   sleeper.Process.Pid,
	}
	cfg.UnixSockets = map[string]string{}
	for name, p := range map[string]string{
		"connect to a daemon's unix socket outside": filepath.Join(project, "docker.sock"),
		"connect to the gpg agent's socket":         filepath.Join(home, ".gnupg", "S.gpg-agent"),
	} {
		ln, err := net.Listen("unix", p)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { ln.Close() })
		os.Chmod(p, 0o777)
		cfg.UnixSockets[name] = p
	}
	broker, err := net.Listen("unix", filepath.Join(state, "broker.sock"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { broker.Close() })
	go func() {
		for {
			c, err := broker.Accept()
			if err != nil {
				return
			}
			c.Close()
		}
	}()
	os.Chmod(filepath.Join(state, "broker.sock"), 0o777)
	cfg.BrokerSocket = filepath.Join(state, "broker.sock")
	js, _ := json.Marshal(cfg)

	for _, mode := range modes(t) {
		t.Run(string(mode), func(t *testing.T) {
			os.Remove(filepath.Join(ws, "written-inside.txt"))
			var mu sync.Mutex
			var asked []string
			asker := func(ctx context.Context, host string, port int) (bool, string) {
				mu.Lock()
				asked = append(asked, fmt.Sprintf("%s:%d", host, port))
				mu.Unlock()
				// Internal addresses must be refused even when the person says yes.
				if host == "169.254.169.254" || host == "10.0.0.1" || host == "fd00:ec2::254" {
					return true, ""
				}
				return false, "test denies"
			}
			p := DefaultProfile(ws, home)
			p.Readable = append(p.Readable, home, filepath.Dir(exe))
			p.ReadOnly = []string{state}
			p.AllowHosts = []string{allowed}
			sbx, err := Prepare(p, Options{Mode: mode, Asker: asker, Helper: helperBin})
			if err != nil {
				t.Fatal(err)
			}
			defer sbx.Close()
			cmd, err := sbx.Command(context.Background(), ws, exe, probeArg, string(js))
			if err != nil {
				t.Fatal(err)
			}
			var stderr bytes.Buffer
			cmd.Stderr = &stderr
			out, err := cmd.Output()
			if err != nil {
				t.Fatalf("probe failed: %v\n%s", err, stderr.String())
			}
			results := map[string]probeResult{}
			sc := bufio.NewScanner(bytes.NewReader(out))
			for sc.Scan() {
				var r probeResult
				if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
					t.Fatalf("probe output %q: %v", sc.Text(), err)
				}
				results[r.Name] = r
			}
			if len(results) < len(writes)+len(creds)+20 {
				t.Fatalf("probe reported only %d checks:\n%s\n%s", len(results), out, stderr.String())
			}
			for name, r := range results {
				t.Run(name, func(t *testing.T) {
					if r.Escaped {
						t.Errorf("ESCAPED: %s (%s)", name, r.Detail)
					} else {
						t.Logf("blocked: %s", r.Detail)
					}
				})
			}
			// What reached disk, seen from outside.
			for name, path := range writes {
				b, _ := os.ReadFile(path)
				if string(b) == "escaped" {
					t.Errorf("%s: %s was written from inside", name, path)
				}
			}
			if b, err := os.ReadFile(filepath.Join(ws, "written-inside.txt")); err != nil || string(b) != "ok" {
				t.Errorf("a write inside the workspace did not reach disk: %v", err)
			}
			for _, hook := range []string{".git/hooks/pre-commit", ".git/config"} {
				if b, _ := os.ReadFile(filepath.Join(ws, hook)); strings.Contains(string(b), "pwned") {
					t.Errorf("protected %s was changed from inside", hook)
				}
			}
			if _, err := os.Stat(hostTmp); err == nil {
				t.Errorf("%s in the host's /tmp was written from inside", hostTmp)
			}
			if err := sleeper.Process.Signal(syscall.Signal(0)); err != nil {
				t.Errorf("the process outside was killed from inside: %v", err)
			}
			mu.Lock()
			defer mu.Unlock()
			if !strings.Contains(strings.Join(asked, " "), denied) {
				t.Errorf("the asker was not consulted about %s (asked: %v)", denied, asked)
			}
		})
	}
}

// unprivilegedAlso are the tests TestEscapeUnprivileged re-runs: the
// pids limit is RLIMIT_NPROC there, not the cgroup root gets.
var unprivilegedAlso = []string{"TestEscape", "TestForkBombIsBounded", "TestRelativeProgramsRun"}

// TestEscapeUnprivileged re-runs TestEscape as the unprivileged CI user when
// the suite runs as root, so both kinds of caller are covered.
func TestEscapeUnprivileged(t *testing.T) {
	if os.Getuid() != 0 {
		t.Skip("already unprivileged: TestEscape covered it")
	}
	const name = "sentinel-ci"
	u, err := user.Lookup(name)
	if err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("user %s is missing (CI=true): useradd -m %s", name, name)
		}
		t.Skipf("user %s does not exist: create it (useradd -m %s) to run the escape suite unprivileged", name, name)
	}
	setpriv, err := exec.LookPath("setpriv")
	if err != nil {
		t.Fatal("setpriv is missing (util-linux)")
	}
	dir, err := os.MkdirTemp("", "sentinel-escape-bins-")
	if err != nil {
		t.Fatal(err)
	}
	defer os.RemoveAll(dir)
	os.Chmod(dir, 0o755)
	exe, _ := os.Executable()
	testBin, sentinel := filepath.Join(dir, "sandbox.test"), filepath.Join(dir, "sentinel")
	for src, dst := range map[string]string{exe: testBin, helperBin: sentinel} {
		b, err := os.ReadFile(src)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(dst, b, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	cmd := exec.Command(setpriv, "--reuid="+u.Uid, "--regid="+u.Gid, "--init-groups",
		testBin, "-test.run", "^("+strings.Join(unprivilegedAlso, "|")+")$", "-test.v")
	cmd.Dir = dir
	cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "HOME=" + u.HomeDir, "USER=" + name,
		"SENTINEL_TEST_BIN=" + sentinel, "CI=" + os.Getenv("CI"), "TMPDIR=/tmp"}
	out, err := cmd.CombinedOutput()
	for _, test := range unprivilegedAlso {
		if err != nil || !bytes.Contains(out, []byte("--- PASS: "+test+" ")) {
			t.Fatalf("escape suite (%s) as %s failed: %v\n%s", test, name, err, out)
		}
	}
	t.Logf("escape suite passed as %s (uid %s)", name, u.Uid)
}
