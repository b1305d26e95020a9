package inside

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"testing"

	"golang.org/x/sys/unix"
)

// landlockArg makes the test binary confine itself with
// restrictLandlock alone — no namespaces, no mounts, no seccomp — and try
// what the rules must and must not let through.
const landlockArg = "landlock"

type landlockProbeConfig struct {
	Spec     Spec
	Allowed  map[string]landlockOp // must work; each on files of its own (the order is random)
	Denied   map[string]landlockOp // must fail
	Sleeper  int                   // a process outside: must not be signalled (ABI ≥ 6)
	Abstract string                // an abstract unix socket outside: must not be reached (ABI ≥ 6)
}

// landlockOp is one filesystem attempt.
type landlockOp struct {
	Op   string // read, write, mkdir, rename, symlink, truncate
	Path string
	To   string // rename, symlink: the new name
}

type landlockResult struct {
	Name string `json:"name"`
	Want string `json:"want"` // allowed or denied
	Err  string `json:"err"`  // "" when the attempt worked
}

// landlockProbe runs on the main goroutine, locked to its thread: the
// ruleset binds this thread, as it binds stage 2 until it execs.
func landlockProbe(raw string) int {
	runtime.LockOSThread()
	var cfg landlockProbeConfig
	if err := json.Unmarshal([]byte(raw), &cfg); err != nil {
		fmt.Fprintln(os.Stderr, "landlock probe: bad config:", err)
		return 2
	}
	if err := unix.Prctl(unix.PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0); err != nil {
		fmt.Fprintln(os.Stderr, "landlock probe: no-new-privs:", err)
		return 2
	}
	if err := restrictLandlock(cfg.Spec); err != nil {
		fmt.Fprintln(os.Stderr, "landlock probe: restrict:", err)
		return 2
	}
	enc := json.NewEncoder(os.Stdout)
	report := func(name, want string, err error) {
		r := landlockResult{Name: name, Want: want}
		if err != nil {
			r.Err = err.Error()
		}
		enc.Encode(r)
	}
	for name, op := range cfg.Allowed {
		report(name, "allowed", op.do())
	}
	for name, op := range cfg.Denied {
		report(name, "denied", op.do())
	}
	if LandlockABI() >= 6 {
		report("signal a process outside", "denied", unix.Kill(cfg.Sleeper, syscall.SIGCONT))
		fd, err := unix.Socket(unix.AF_UNIX, unix.SOCK_STREAM|unix.SOCK_CLOEXEC, 0)
		if err == nil {
			err = unix.Connect(fd, &unix.SockaddrUnix{Name: "@" + cfg.Abstract})
			unix.Close(fd)
		}
		report("connect to an abstract unix socket outside", "denied", err)
	}
	return 0
}

func (o landlockOp) do() error {
	switch o.Op {
	case "read":
		_, err := os.ReadFile(o.Path)
		return err
	case "write":
		f, err := os.OpenFile(o.Path, os.O_WRONLY|os.O_CREATE, 0o644)
		if err != nil {
			return err
		}
		_, err = f.WriteString("escaped")
		if cerr := f.Close(); err == nil {
			err = cerr
		}
		return err
	case "truncate":
		return os.Truncate(o.Path, 0)
	case "mkdir":
		return os.Mkdir(o.Path, 0o755)
	case "rename":
		return os.Rename(o.Path, o.To)
	case "symlink":
		return os.Symlink(o.Path, o.To)
	}
	return fmt.Errorf("unknown op %q", o.Op)
}

// TestLandlockAlone confines a process with the sandbox's Landlock rules
// and nothing else, so a weakened ruleset cannot hide behind the mount
// namespace that TestEscape also faces: what lies outside the rules must be
// unreadable and unwritable although it is there to see, read-only places
// must stay read-only, and the workspace and writable places must work.
func TestLandlockAlone(t *testing.T) {
	abi := LandlockABI()
	if abi < 1 {
		if os.Getenv("CI") == "true" {
			t.Fatal("this kernel offers no Landlock (CI=true)")
		}
		t.Skip("this kernel offers no Landlock")
	}
	// Not under /tmp: the rules make /tmp writable (inside the sandbox it
	// is a private one).
	base, err := os.MkdirTemp("/var/tmp", "sentinel-landlock-")
	if err != nil {
		t.Fatalf("a test directory outside /tmp: %v", err)
	}
	t.Cleanup(func() { os.RemoveAll(base) })
	ws, ro, rw, out := filepath.Join(base, "ws"), filepath.Join(base, "readable"), filepath.Join(base, "writable"), filepath.Join(base, "outside")
	for _, f := range []string{
		filepath.Join(ws, "main.go"), filepath.Join(ws, "rename-me"), filepath.Join(ws, "move-me"), filepath.Join(ws, "move-out"),
		filepath.Join(ro, "lib.txt"), filepath.Join(ro, "keep-w.txt"), filepath.Join(ro, "keep-t.txt"), filepath.Join(ro, "keep-r.txt"),
		filepath.Join(out, "secret.txt"), filepath.Join(out, "secret-w.txt"),
	} {
		mustWrite(t, f, "original")
	}
	if err := os.MkdirAll(rw, 0o755); err != nil {
		t.Fatal(err)
	}

	sleeper := exec.Command("sleep", "600")
	if err := sleeper.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { sleeper.Process.Kill(); sleeper.Wait() })
	abstract := fmt.Sprintf("sentinel-landlock-test-%d", os.Getpid())
	ln, err := net.Listen("unix", "@"+abstract)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			c.Close()
		}
	}()

	cfg := landlockProbeConfig{
		Spec: Spec{Workspace: ws, Readable: []string{ro}, Writable: []string{rw}},
		Allowed: map[string]landlockOp{
			"read in the workspace":       {Op: "read", Path: filepath.Join(ws, "main.go")},
			"write in the workspace":      {Op: "write", Path: filepath.Join(ws, "new.go")},
			"mkdir in the workspace":      {Op: "mkdir", Path: filepath.Join(ws, "pkg")},
			"read a readable place":       {Op: "read", Path: filepath.Join(ro, "lib.txt")},
			"write a writable place":      {Op: "write", Path: filepath.Join(rw, "cache")},
			"read a system location":      {Op: "read", Path: "/etc/hostname"},
			"write a device file":         {Op: "write", Path: "/dev/null"},
			"symlink in the workspace":    {Op: "symlink", Path: "main.go", To: filepath.Join(ws, "link")},
			"rename within the workspace": {Op: "rename", Path: filepath.Join(ws, "rename-me"), To: filepath.Join(ws, "renamed")},
		},
		Denied: map[string]landlockOp{
			"read outside the rules":             {Op: "read", Path: filepath.Join(out, "secret.txt")},
			"write outside the rules":            {Op: "write", Path: filepath.Join(out, "escaped.txt")},
			"overwrite a file outside the rules": {Op: "write", Path: filepath.Join(out, "secret-w.txt")},
			"mkdir outside the rules":            {Op: "mkdir", Path: filepath.Join(out, "dir")},
			"symlink outside the rules":          {Op: "symlink", Path: "/etc", To: filepath.Join(out, "link")},
			"write a readable place":             {Op: "write", Path: filepath.Join(ro, "planted.txt")},
			"overwrite a readable file":          {Op: "write", Path: filepath.Join(ro, "keep-w.txt")},
			"truncate a readable file":           {Op: "truncate", Path: filepath.Join(ro, "keep-t.txt")},
			"move a readable file away":          {Op: "rename", Path: filepath.Join(ro, "keep-r.txt"), To: filepath.Join(ws, "stolen.txt")},
			"move a workspace file outside":      {Op: "rename", Path: filepath.Join(ws, "move-out"), To: filepath.Join(out, "moved")},
			"write /etc":                         {Op: "write", Path: "/etc/sentinel-landlock-escaped"},
		},
		Sleeper:  sleeper.Process.Pid,
		Abstract: abstract,
	}
	if abi >= 2 {
		// Reparenting needs "refer", which an ABI 1 kernel never grants.
		cfg.Allowed["move a file from the workspace to a writable place"] = landlockOp{Op: "rename", Path: filepath.Join(ws, "move-me"), To: filepath.Join(rw, "moved")}
	}
	js, err := json.Marshal(cfg)
	if err != nil {
		t.Fatal(err)
	}
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	var stderr bytes.Buffer
	cmd := exec.Command(exe, landlockArg, string(js))
	cmd.Stderr = &stderr
	stdout, err := cmd.Output()
	if err != nil {
		t.Fatalf("landlock probe: %v\n%s", err, stderr.String())
	}
	seen := 0
	sc := bufio.NewScanner(bytes.NewReader(stdout))
	for sc.Scan() {
		var r landlockResult
		if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
			t.Fatalf("probe output %q: %v", sc.Text(), err)
		}
		seen++
		switch {
		case r.Want == "denied" && r.Err == "":
			t.Errorf("ESCAPED under Landlock alone: %s", r.Name)
		case r.Want == "denied" && !strings.Contains(r.Err, "permission denied") && !strings.Contains(r.Err, "operation not permitted"):
			t.Errorf("%s failed, but not for Landlock: %s", r.Name, r.Err)
		case r.Want == "allowed" && r.Err != "":
			t.Errorf("Landlock forbids what the sandbox grants: %s: %s", r.Name, r.Err)
		default:
			t.Logf("%s (%s): %s", r.Name, r.Want, r.Err)
		}
	}
	want := len(cfg.Allowed) + len(cfg.Denied)
	if abi >= 6 {
		want += 2
	}
	if seen != want {
		t.Fatalf("the probe reported %d attempts, want %d:\n%s\n%s", seen, want, stdout, stderr.String())
	}
	// What reached disk, seen from outside.
	for _, p := range []string{filepath.Join(out, "escaped.txt"), filepath.Join(out, "dir"), filepath.Join(out, "link"),
		filepath.Join(out, "moved"), filepath.Join(ro, "planted.txt"), "/etc/sentinel-landlock-escaped"} {
		if _, err := os.Lstat(p); err == nil {
			t.Errorf("%s was created from inside", p)
			os.RemoveAll(p)
		}
	}
	for _, p := range []string{filepath.Join(out, "secret.txt"), filepath.Join(out, "secret-w.txt"),
		filepath.Join(ro, "keep-w.txt"), filepath.Join(ro, "keep-t.txt"), filepath.Join(ro, "keep-r.txt")} {
		if b, _ := os.ReadFile(p); string(b) != "original" {
			t.Errorf("%s was changed from inside: %q", p, b)
		}
	}
	if err := sleeper.Process.Signal(syscall.Signal(0)); err != nil {
		t.Errorf("the process outside was killed from inside: %v", err)
	}
}
