package sudoedit

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestClientProcess is the MCP service's side, run as another user by the
// tests below: it sends one request and prints the answer.
func TestClientProcess(t *testing.T) {
	raw := os.Getenv("SUDOEDIT_TEST_REQUEST")
	if f := os.Getenv("SUDOEDIT_TEST_REQUEST_FILE"); f != "" {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		raw = string(b)
	}
	if raw == "" {
		t.Skip("run by the helper tests as the service user")
	}
	if os.Getenv("SUDOEDIT_TEST_RAW") != "" { // sent as is, malformed or not
		c, err := net.Dial("unix", os.Getenv("SUDOEDIT_TEST_SOCKET"))
		if err != nil {
			t.Fatal(err)
		}
		c.Write([]byte(raw))
		c.(*net.UnixConn).CloseWrite()
		var resp Response
		json.NewDecoder(c).Decode(&resp)
		json.NewEncoder(os.Stdout).Encode(map[string]any{"resp": resp, "err": resp.Error})
		return
	}
	var req Request
	if err := json.Unmarshal([]byte(raw), &req); err != nil {
		t.Fatal(err)
	}
	resp, err := Client{Socket: os.Getenv("SUDOEDIT_TEST_SOCKET")}.Do(context.Background(), req)
	out := map[string]any{"resp": resp}
	if err != nil {
		out["err"] = err.Error()
	}
	json.NewEncoder(os.Stdout).Encode(out)
}

// helperEnv is a helper serving on a socket in a directory both root and
// the service user reach.
type helperEnv struct {
	base, etc, sock, bin, audit, backups string
	uid, gid                             int
	// check, when set, is the helper's validator instead of the JSON one.
	check func(string, []byte) error
	// extra is more of the helper's config.
	extra string
}

func newHelperEnv(t *testing.T) *helperEnv {
	t.Helper()
	if os.Geteuid() != 0 {
		t.Skip("the helper tests run as root")
	}
	u, err := user.Lookup("sentinel-ci")
	if err != nil {
		t.Skip("no user sentinel-ci (useradd -M -s /usr/sbin/nologin sentinel-ci)")
	}
	e := &helperEnv{}
	e.uid, _ = strconv.Atoi(u.Uid)
	e.gid, _ = strconv.Atoi(u.Gid)
	e.base, err = os.MkdirTemp("/tmp", "sudoedit-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(e.base) })
	os.Chmod(e.base, 0o755)
	e.etc = filepath.Join(e.base, "etc")
	for _, d := range []string{e.etc, filepath.Join(e.base, "run"), filepath.Join(e.base, "bin"), filepath.Join(e.base, "cfg")} {
		if err := os.Mkdir(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	e.audit = filepath.Join(e.base, "audit.log")
	e.backups = filepath.Join(e.base, "backups")
	// The test binary, where the service user can run it.
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	e.bin = filepath.Join(e.base, "bin", "client.test")
	data, err := os.ReadFile(self)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(e.bin, data, 0o755); err != nil {
		t.Fatal(err)
	}
	return e
}

// serve starts the helper with files listed.
func (e *helperEnv) serve(t *testing.T, files ...string) *Server {
	t.Helper()
	var list []string
	for _, f := range files {
		list = append(list, strconv.Quote(f))
	}
	cfgFile := filepath.Join(e.base, "cfg", "mcp-sudo.toml")
	src := fmt.Sprintf("user = \"sentinel-ci\"\nfiles = [%s]\nbackup_dir = %q\naudit = %q\n%s", strings.Join(list, ", "), e.backups, e.audit, e.extra)
	if err := os.WriteFile(cfgFile, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	cfg, err := LoadConfig(cfgFile)
	if err != nil {
		t.Fatal(err)
	}
	check := e.check
	if check == nil {
		check = func(p string, b []byte) error {
			if strings.HasSuffix(p, ".json") && !json.Valid(b) {
				return errors.New("not JSON")
			}
			return nil
		}
	}
	srv, err := NewServer(cfg, check)
	if err != nil {
		t.Fatal(err)
	}
	e.sock = filepath.Join(e.base, "run", "helper.sock")
	ln, err := net.Listen("unix", e.sock)
	if err != nil {
		t.Fatal(err)
	}
	os.Chmod(e.sock, 0o666) // the uid check is the gate under test
	done := make(chan struct{})
	go func() { defer close(done); srv.Serve(ln) }()
	t.Cleanup(func() { ln.Close(); <-done })
	return srv
}

// as sends req as the service user (another process, its own uid).
func (e *helperEnv) as(t *testing.T, req Request) (*Response, string) {
	t.Helper()
	raw, _ := json.Marshal(req)
	return e.send(t, raw)
}

// send sends raw as the service user: a request, or with
// SUDOEDIT_TEST_RAW set, any bytes.
func (e *helperEnv) send(t *testing.T, raw []byte) (*Response, string) {
	t.Helper()
	cmd := exec.Command(e.bin, "-test.run=^TestClientProcess$", "-test.v=false")
	cmd.Env = []string{"SUDOEDIT_TEST_REQUEST=" + string(raw), "SUDOEDIT_TEST_SOCKET=" + e.sock, "PATH=/usr/bin:/bin", "SUDOEDIT_TEST_RAW=" + os.Getenv("SUDOEDIT_TEST_RAW")}
	if len(raw) > 64<<10 { // over what one environment string may hold
		f := filepath.Join(e.base, "request.json")
		if err := os.WriteFile(f, raw, 0o644); err != nil {
			t.Fatal(err)
		}
		cmd.Env[0] = "SUDOEDIT_TEST_REQUEST_FILE=" + f
	}
	cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: uint32(e.uid), Gid: uint32(e.gid)}}
	cmd.Dir = e.base
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, io.Discard
	if err := cmd.Run(); err != nil {
		t.Fatalf("the service user's process: %v: %s", err, out.String())
	}
	line := out.String()
	if i := strings.Index(line, "{"); i >= 0 {
		line = line[i:]
	}
	var got struct {
		Resp *Response `json:"resp"`
		Err  string    `json:"err"`
	}
	if err := json.NewDecoder(strings.NewReader(line)).Decode(&got); err != nil {
		t.Fatalf("the service user's process printed %q: %v", out.String(), err)
	}
	return got.Resp, got.Err
}

func writeRoot(t *testing.T, p, body string, mode os.FileMode) {
	t.Helper()
	if err := os.WriteFile(p, []byte(body), mode); err != nil {
		t.Fatal(err)
	}
	os.Chmod(p, mode)
}

func TestHelperEditsOnlyListedFilesForTheServiceUser(t *testing.T) {
	e := newHelperEnv(t)
	listed := filepath.Join(e.etc, "app.json")
	writeRoot(t, listed, `{"a": 1}`, 0o640)
	os.Chown(listed, 0, e.gid) // root's, its group another: both kept
	unlisted := filepath.Join(e.etc, "other.json")
	writeRoot(t, unlisted, `{"o": 1}`, 0o644)
	target := filepath.Join(e.etc, "target.json")
	writeRoot(t, target, `{"t": 1}`, 0o644)
	linked := filepath.Join(e.etc, "linked.json")
	writeRoot(t, linked, `{"l": 1}`, 0o644)
	link := filepath.Join(e.etc, "link.json")
	os.Symlink(linked, link)
	hard := filepath.Join(e.etc, "hard.json")
	os.Link(target, hard)
	linkDir := filepath.Join(e.base, "etclink")
	os.Mkdir(linkDir, 0o755)
	viaLinkDir := filepath.Join(linkDir, "app.json")
	e.serve(t, listed, link, hard, viaLinkDir)
	os.Remove(linkDir) // a link on the way after the config was loaded
	os.Symlink(e.etc, linkDir)

	// Listed: read and replaced, owner and mode kept, a backup first.
	resp, errText := e.as(t, Request{Op: "read", Path: listed})
	if errText != "" || string(resp.Content) != `{"a": 1}` {
		t.Fatalf("read of the listed file: %v %q", resp, errText)
	}
	resp, errText = e.as(t, Request{Op: "write", Path: listed, Content: []byte(`{"a": 2}`), OldSHA256: resp.SHA256})
	if errText != "" {
		t.Fatalf("write of the listed file refused: %s", errText)
	}
	if b, _ := os.ReadFile(listed); string(b) != `{"a": 2}` {
		t.Fatalf("the listed file holds %q", b)
	}
	fi, _ := os.Stat(listed)
	st := fi.Sys().(*syscall.Stat_t)
	if fi.Mode().Perm() != 0o640 || st.Uid != 0 || int(st.Gid) != e.gid {
		t.Fatalf("owner/mode after the edit: %d:%d %v", st.Uid, st.Gid, fi.Mode())
	}
	if b, err := os.ReadFile(resp.Backup); err != nil || string(b) != `{"a": 1}` || !strings.HasPrefix(resp.Backup, e.backups+"/") {
		t.Fatalf("backup %s: %q %v", resp.Backup, b, err)
	}

	// Refused, each leaving its file as it was.
	for name, c := range map[string]struct {
		path, want string
	}{
		"unlisted":        {unlisted, "not listed"},
		"symlink":         {link, "not be a link"},
		"hard link":       {hard, "hard links"},
		"via a dir link":  {viaLinkDir, "no link may be on the way"},
		"via ..":          {e.etc + "/sub/../app.json", "clean"},
		"relative":        {"etc/app.json", "absolute"},
		"invalid content": {listed, "not valid"},
		"stale read":      {listed, "changed since"},
	} {
		req := Request{Op: "write", Path: c.path, Content: []byte(`{"pwned": true}`)}
		switch name {
		case "invalid content":
			req.Content = []byte(`{not json`)
		case "stale read":
			req.OldSHA256 = strings.Repeat("0", 64)
		}
		if _, errText := e.as(t, req); !strings.Contains(errText, c.want) {
			t.Errorf("%s: want a refusal naming %q, got %q", name, c.want, errText)
		}
	}
	for p, want := range map[string]string{listed: `{"a": 2}`, unlisted: `{"o": 1}`, target: `{"t": 1}`, linked: `{"l": 1}`} {
		if b, _ := os.ReadFile(p); string(b) != want {
			t.Errorf("%s holds %q after the refusals", p, b)
		}
	}

	// Another uid (root itself, here) is not answered.
	_, err := Client{Socket: e.sock, Timeout: 30 * time.Second}.Do(t.Context(), Request{Op: "write", Path: listed, Content: []byte(`{"root": 1}`)})
	var r *Refused
	if !errors.As(err, &r) || !strings.Contains(r.Reason, "only the MCP service's user") {
		t.Fatalf("another uid: %v", err)
	}
	if b, _ := os.ReadFile(listed); string(b) != `{"a": 2}` {
		t.Fatalf("another uid changed the file: %q", b)
	}
	audit, _ := os.ReadFile(e.audit)
	if n := strings.Count(string(audit), "\n"); n != 21 || !strings.Contains(string(audit), `"result":"refused"`) || !strings.Contains(string(audit), `"uid":`+strconv.Itoa(e.uid)) {
		t.Fatalf("the audit holds %d lines:\n%s", n, audit)
	}
}

func TestHelperConfigMustBeRoots(t *testing.T) {
	e := newHelperEnv(t)
	p := filepath.Join(e.base, "cfg", "mcp-sudo.toml")
	os.WriteFile(p, []byte("user = \"sentinel-ci\"\nfiles = []\n"), 0o644)
	if _, err := LoadConfig(p); err != nil {
		t.Fatalf("a root config: %v", err)
	}
	os.Chown(p, e.uid, e.gid)
	if _, err := LoadConfig(p); err == nil || !strings.Contains(err.Error(), "must be root's") {
		t.Fatalf("a config the service user owns: %v", err)
	}
	os.Chown(p, 0, 0)
	os.Chmod(p, 0o666)
	if _, err := LoadConfig(p); err == nil || !strings.Contains(err.Error(), "writable by group or others") {
		t.Fatalf("a world-writable config: %v", err)
	}
	os.Chmod(p, 0o644)
	os.Chmod(filepath.Dir(p), 0o777)
	if _, err := LoadConfig(p); err == nil || !strings.Contains(err.Error(), "writable by group or others") {
		t.Fatalf("a config in a world-writable dir: %v", err)
	}
	os.Chmod(filepath.Dir(p), 0o755)
	// Backups where the service user writes: the helper does not start.
	theirs := filepath.Join(e.base, "theirs")
	os.Mkdir(theirs, 0o700)
	os.Chown(theirs, e.uid, e.gid)
	for _, c := range []*Config{{User: "sentinel-ci", UID: e.uid, BackupDir: theirs, Audit: e.audit, MaxBytes: 1}, {User: "sentinel-ci", UID: e.uid, BackupDir: e.backups, Audit: filepath.Join(theirs, "audit.log"), MaxBytes: 1}} {
		if _, err := NewServer(c, nil); err == nil || !strings.Contains(err.Error(), "must be root's") {
			t.Fatalf("backups or audit in the service user's dir: %v", err)
		}
	}
	os.WriteFile(p, []byte("user = \"root\"\nfiles = []\n"), 0o644)
	if _, err := LoadConfig(p); err == nil || !strings.Contains(err.Error(), "is root") {
		t.Fatalf("user root: %v", err)
	}
}
