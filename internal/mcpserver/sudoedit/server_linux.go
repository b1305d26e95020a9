package sudoedit

import (
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"golang.org/x/sys/unix"

	"github.com/sentinelhq/sentinel/internal/peercred"
)

// Server answers the MCP service on a socket.
type Server struct {
	cfg   *Config
	audit *os.File // opened at the start: no audit, no helper
	// Check validates a file's new content (by its path's kind); nil
	// checks nothing.
	Check func(path string, data []byte) error
	mu    sync.Mutex // one request at a time: edits of one file never interleave
	// minFree is the space the backups leave free on their file system.
	minFree int64
	sem     chan struct{} // a slot for each connection being answered
}

const (
	// maxConns is how many connections are answered at once.
	maxConns = 2
	// keepBackups is how many backups of each file are kept.
	keepBackups = 10
	// defaultMinFree is the least free space backups leave.
	defaultMinFree = 64 << 20
)

// NewServer is the helper for cfg; its backup dir is made (0700) now.
func NewServer(cfg *Config, check func(string, []byte) error) (*Server, error) {
	if err := os.MkdirAll(cfg.BackupDir, 0o700); err != nil {
		return nil, fmt.Errorf("sudo-helper backup_dir %s: %v", cfg.BackupDir, err)
	}
	// Backups and the audit are where only root writes.
	for _, d := range []string{cfg.BackupDir, filepath.Dir(cfg.Audit)} {
		if err := rootOnly(d); err != nil {
			return nil, err
		}
	}
	a, err := os.OpenFile(cfg.Audit, os.O_WRONLY|os.O_APPEND|os.O_CREATE|unix.O_NOFOLLOW, 0o600)
	if err != nil {
		return nil, fmt.Errorf("sudo-helper audit %s: %v", cfg.Audit, err)
	}
	return &Server{cfg: cfg, audit: a, Check: check, minFree: defaultMinFree, sem: make(chan struct{}, maxConns)}, nil
}

// Serve answers connections on ln until it is closed.
func (s *Server) Serve(ln net.Listener) error {
	for {
		c, err := ln.Accept()
		if err != nil {
			if errors.Is(err, net.ErrClosed) {
				return nil
			}
			return err
		}
		// At most maxConns requests are read at once: each may hold a
		// frame in memory; the others wait in the listen queue.
		s.sem <- struct{}{}
		go func() {
			defer func() { <-s.sem }()
			s.conn(c)
		}()
	}
}

func (s *Server) conn(c net.Conn) {
	defer c.Close()
	c.SetDeadline(time.Now().Add(60 * time.Second))
	// The request is read first (bounded), so the refusal reaches
	// the peer and the audit names what it asked.
	var req Request
	derr := json.NewDecoder(io.LimitReader(c, frameFor(s.cfg.MaxBytes))).Decode(&req)
	cred, err := peercred.Of(c)
	if err != nil || cred.UID != s.cfg.UID {
		who := "unknown"
		if err == nil {
			who = fmt.Sprintf("uid %d pid %d", cred.UID, cred.PID)
		}
		s.record(cred, req, "", "", fmt.Errorf("refused %s: only uid %d (%s) is answered", who, s.cfg.UID, s.cfg.User))
		json.NewEncoder(c).Encode(Response{Error: fmt.Sprintf("only the MCP service's user (%s) is answered", s.cfg.User)})
		return
	}
	if derr != nil {
		err := fmt.Errorf("a request is one JSON object: %v", derr)
		s.record(cred, req, "", "", err)
		json.NewEncoder(c).Encode(Response{Error: err.Error()})
		return
	}
	// What was asked is on record before anything is done: no line, no
	// edit.
	if err := s.write(auditLine{Time: time.Now().UTC(), UID: cred.UID, PID: cred.PID, Op: req.Op, Path: req.Path, Result: "received"}); err != nil {
		json.NewEncoder(c).Encode(Response{Error: fmt.Sprintf("the audit %s cannot be written (%v); nothing is done", s.cfg.Audit, err)})
		return
	}
	s.mu.Lock()
	resp, before, after, err := s.do(req)
	s.mu.Unlock()
	s.record(cred, req, before, after, err)
	if err != nil {
		resp = &Response{Error: err.Error()}
	} else {
		resp.OK = true
	}
	json.NewEncoder(c).Encode(resp)
}

func (s *Server) do(req Request) (resp *Response, before, after string, err error) {
	p := req.Path
	if !filepath.IsAbs(p) || filepath.Clean(p) != p || strings.Contains(p, "\x00") {
		return nil, "", "", fmt.Errorf("%q is not an absolute, clean path", p)
	}
	if !s.cfg.listed(p) {
		return nil, "", "", fmt.Errorf("%s is not listed in %s", p, s.cfg.File)
	}
	dir, err := unix.Openat2(unix.AT_FDCWD, filepath.Dir(p), &unix.OpenHow{Flags: unix.O_PATH | unix.O_DIRECTORY | unix.O_CLOEXEC,
		Resolve: unix.RESOLVE_NO_SYMLINKS | unix.RESOLVE_NO_MAGICLINKS | unix.RESOLVE_NO_XDEV})
	if err != nil {
		return nil, "", "", fmt.Errorf("%s: its directory: %v (no link may be on the way)", p, err)
	}
	defer unix.Close(dir)
	if err := rootOnly(filepath.Dir(p)); err != nil {
		return nil, "", "", fmt.Errorf("%s: its directory must be root's and writable by no one else: %v", p, err)
	}
	base := filepath.Base(p)
	fd, err := unix.Openat2(dir, base, &unix.OpenHow{Flags: unix.O_RDONLY | unix.O_NOFOLLOW | unix.O_CLOEXEC | unix.O_NONBLOCK,
		Resolve: unix.RESOLVE_NO_SYMLINKS | unix.RESOLVE_BENEATH})
	if err != nil {
		return nil, "", "", fmt.Errorf("%s: %v (it must exist and not be a link)", p, err)
	}
	f := os.NewFile(uintptr(fd), p)
	defer f.Close()
	var st unix.Stat_t
	if err := unix.Fstat(fd, &st); err != nil {
		return nil, "", "", err
	}
	switch {
	case st.Mode&unix.S_IFMT != unix.S_IFREG:
		return nil, "", "", fmt.Errorf("%s is not a regular file", p)
	case st.Mode&(unix.S_ISUID|unix.S_ISGID) != 0:
		// Its replacement would keep the bit: the service user would
		// write a program that runs as its owner.
		return nil, "", "", fmt.Errorf("%s is setuid or setgid: the helper edits no such file (chmod ug-s it, or unlist it)", p)
	case st.Nlink != 1:
		return nil, "", "", fmt.Errorf("%s has %d hard links: it is edited only with one", p, st.Nlink)
	case st.Size > s.cfg.MaxBytes:
		return nil, "", "", fmt.Errorf("%s is %d bytes, over max_bytes %d", p, st.Size, s.cfg.MaxBytes)
	}
	old, err := io.ReadAll(io.LimitReader(f, s.cfg.MaxBytes+1))
	if err != nil {
		return nil, "", "", fmt.Errorf("%s: %v", p, err)
	}
	before = sum(old)
	mode := uint32(st.Mode & 0o7777)
	switch req.Op {
	case "read":
		return &Response{Content: old, SHA256: before, Mode: mode}, before, "", nil
	case "write":
	default:
		return nil, before, "", fmt.Errorf("op %q: read or write", req.Op)
	}
	if req.OldSHA256 != "" && req.OldSHA256 != before {
		return nil, before, "", fmt.Errorf("%s changed since it was read; read it again", p)
	}
	if int64(len(req.Content)) > s.cfg.MaxBytes {
		return nil, before, "", fmt.Errorf("the new content is %d bytes, over max_bytes %d", len(req.Content), s.cfg.MaxBytes)
	}
	// The bound holds with or without a validator: the content is parsed
	// as root either way once anything reads it.
	if err := checkNesting(p, req.Content); err != nil {
		return nil, before, "", fmt.Errorf("%s: %v", p, err)
	}
	if s.Check != nil {
		if err := s.Check(p, req.Content); err != nil {
			return nil, before, "", fmt.Errorf("%s: the new content is not valid: %v (nothing written)", p, err)
		}
	}
	backup, err := s.backup(p, old)
	if err != nil {
		return nil, before, "", err
	}
	if err := replace(dir, base, p, req.Content, &st); err != nil {
		return nil, before, "", err
	}
	after = sum(req.Content)
	return &Response{SHA256: after, Backup: backup, Mode: mode}, before, after, nil
}

// backup writes old into the backup dir (0600, root's), a new name each
// time, keeping the newest keepBackups of each file; it refuses when the
// backup dir's file system has less than s.minFree free after it.
func (s *Server) backup(p string, old []byte) (string, error) {
	var fs unix.Statfs_t
	if err := unix.Statfs(s.cfg.BackupDir, &fs); err != nil {
		return "", fmt.Errorf("backup of %s: %v (nothing written)", p, err)
	}
	if free := int64(fs.Bavail) * int64(fs.Bsize); free-int64(len(old)) < s.minFree {
		return "", fmt.Errorf("backup of %s: %s has %d bytes free, under the %d the helper keeps free (nothing written)", p, s.cfg.BackupDir, free, s.minFree)
	}
	prefix := backupPrefix(p)
	name := prefix + time.Now().UTC().Format(backupStamp) + ".bak"
	b := filepath.Join(s.cfg.BackupDir, name)
	f, err := os.OpenFile(b, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return "", fmt.Errorf("backup of %s: %v (nothing written)", p, err)
	}
	if _, err := f.Write(old); err != nil {
		f.Close()
		return "", fmt.Errorf("backup of %s: %v (nothing written)", p, err)
	}
	if err := f.Sync(); err != nil {
		f.Close()
		return "", fmt.Errorf("backup of %s: %v (nothing written)", p, err)
	}
	if err := f.Close(); err != nil {
		return "", fmt.Errorf("backup of %s: %v (nothing written)", p, err)
	}
	s.prune(prefix)
	return b, nil
}

// backupStamp names a backup's time; names sort by it.
const backupStamp = "20060102T150405.000000000Z"

// prune removes all but the newest keepBackups backups named prefix+stamp.
func (s *Server) prune(prefix string) {
	ents, err := os.ReadDir(s.cfg.BackupDir)
	if err != nil {
		return
	}
	var mine []string
	for _, e := range ents {
		rest, ok := strings.CutPrefix(e.Name(), prefix)
		if ok && e.Type().IsRegular() && len(rest) == len(backupStamp)+len(".bak") && strings.HasSuffix(rest, ".bak") && !strings.Contains(rest[:len(backupStamp)], "_") {
			if _, err := time.Parse(backupStamp, rest[:len(backupStamp)]); err == nil {
				mine = append(mine, e.Name())
			}
		}
	}
	slices.Sort(mine)
	for len(mine) > keepBackups {
		os.Remove(filepath.Join(s.cfg.BackupDir, mine[0]))
		mine = mine[1:]
	}
}

// replace puts data at base in dir in one rename, with the old file's
// owner and mode, if base is still the file that was read.
func replace(dir int, base, p string, data []byte, was *unix.Stat_t) error {
	var rnd [8]byte
	rand.Read(rnd[:])
	tmp := "." + base + ".sentinel-" + hex.EncodeToString(rnd[:])
	fd, err := unix.Openat(dir, tmp, unix.O_WRONLY|unix.O_CREAT|unix.O_EXCL|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0o600)
	if err != nil {
		return fmt.Errorf("%s: a temporary file beside it: %v", p, err)
	}
	f := os.NewFile(uintptr(fd), tmp)
	ok := false
	defer func() {
		f.Close()
		if !ok {
			unix.Unlinkat(dir, tmp, 0)
		}
	}()
	if _, err := f.Write(data); err != nil {
		return fmt.Errorf("%s: %v", p, err)
	}
	if err := unix.Fchown(fd, int(was.Uid), int(was.Gid)); err != nil {
		return fmt.Errorf("%s: owner: %v", p, err)
	}
	// Never setuid or setgid, whatever the old file was.
	if err := unix.Fchmod(fd, was.Mode&0o1777); err != nil {
		return fmt.Errorf("%s: mode: %v", p, err)
	}
	if err := f.Sync(); err != nil {
		return fmt.Errorf("%s: %v", p, err)
	}
	var now unix.Stat_t
	if err := unix.Fstatat(dir, base, &now, unix.AT_SYMLINK_NOFOLLOW); err != nil || now.Ino != was.Ino || now.Dev != was.Dev {
		return fmt.Errorf("%s was replaced while it was being edited; nothing written", p)
	}
	if err := unix.Renameat(dir, tmp, dir, base); err != nil {
		return fmt.Errorf("%s: %v", p, err)
	}
	ok = true
	if dfd, err := unix.Openat(dir, ".", unix.O_RDONLY|unix.O_DIRECTORY|unix.O_CLOEXEC, 0); err == nil {
		unix.Fsync(dfd)
		unix.Close(dfd)
	}
	return nil
}

func sum(b []byte) string {
	h := sha256.Sum256(b)
	return hex.EncodeToString(h[:])
}

// auditLine is one line of the helper's audit file.
type auditLine struct {
	Time   time.Time `json:"time"`
	UID    int       `json:"uid"`
	PID    int       `json:"pid"`
	Op     string    `json:"op,omitempty"`
	Path   string    `json:"path,omitempty"`
	Result string    `json:"result"`
	Before string    `json:"sha256_before,omitempty"`
	After  string    `json:"sha256_after,omitempty"`
	Error  string    `json:"error,omitempty"`
}

// record appends the line of a request's outcome to the audit.
func (s *Server) record(cred peercred.Cred, req Request, before, after string, err error) {
	l := auditLine{Time: time.Now().UTC(), UID: cred.UID, PID: cred.PID, Op: req.Op, Path: req.Path, Result: "done", Before: before, After: after}
	if err != nil {
		l.Result, l.Error = "refused", err.Error()
	}
	s.write(l)
}

// write appends l to the audit; a line that cannot be written is said on
// standard error (the journal of the unit) and returned.
func (s *Server) write(l auditLine) error {
	b, _ := json.Marshal(l)
	if _, err := s.audit.Write(append(b, '\n')); err != nil {
		fmt.Fprintf(os.Stderr, "sentinel mcp sudo-helper: audit %s: %v: %s\n", s.cfg.Audit, err, b)
		return err
	}
	return nil
}

// backupPrefix is what p's backups are named with: p without its leading
// slash, `%` and `/` escaped as in a URL, so that no two paths share one
// (prune keeps a file's newest backups by prefix, and must never count
// another file's).
func backupPrefix(p string) string {
	return strings.ReplaceAll(strings.ReplaceAll(strings.TrimPrefix(p, "/"), "%", "%25"), "/", "%2F") + "."
}
