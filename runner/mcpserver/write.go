package mcpserver

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/sentinelhq/sentinel/internal/nofollow"
	"github.com/sentinelhq/sentinel/internal/userstate"
)

// editArgs is what the edit tool takes.
type editArgs struct {
	Path       string  `json:"path" jsonschema:"absolute path of the file to write (under an rw path)"`
	Content    *string `json:"content,omitempty" jsonschema:"the whole new content (creates the file if missing)"`
	OldString  string  `json:"old_string,omitempty" jsonschema:"exact text to replace (with new_string)"`
	NewString  string  `json:"new_string,omitempty" jsonschema:"replacement for old_string"`
	ReplaceAll bool    `json:"replace_all,omitempty" jsonschema:"replace every occurrence of old_string (default: it must occur once)"`
	Validate   string  `json:"validate,omitempty" jsonschema:"auto (by extension, the default), none, json, yaml, toml, go or sh"`
}

// edited is what an edit did.
type edited struct {
	Abs    string
	Backup string // "" for a new file
	Bytes  int
	Check  string // the validation applied ("" for none)
}

func (s *Server) edit(a editArgs) (edited, error) {
	if a.Content == nil && a.OldString == "" {
		return edited{}, &Refusal{Class: ClassBadInput, Reason: "edit needs content, or old_string and new_string", Use: "send content (the whole file) or old_string + new_string"}
	}
	if a.Content != nil && a.OldString != "" {
		return edited{}, &Refusal{Class: ClassBadInput, Reason: "edit got both content and old_string", Use: "send one of them"}
	}
	check, err := validatorFor(a.Validate, a.Path)
	if err != nil {
		return edited{}, err
	}
	pl, err := s.cfg.Resolve(a.Path, AccessReadWrite)
	if err != nil {
		return edited{}, err
	}
	if pl.Rel == "." {
		return edited{}, &Refusal{Class: ClassBadInput, Reason: pl.Abs + " is a configured directory", Use: "name a file inside it"}
	}
	var old []byte
	var mode fs.FileMode = 0o644
	exists := false
	if f, fi, err := openRead(pl); err == nil {
		if fi.Size() > s.cfg.Limits.MaxReadBytes {
			f.Close()
			return edited{}, &Refusal{Class: ClassLimit, Rule: "limits.max_read_bytes", Reason: fmt.Sprintf("%s is %d bytes, over max_read_bytes (%d)", pl.Abs, fi.Size(), s.cfg.Limits.MaxReadBytes), Use: "ask the person to raise [limits] max_read_bytes"}
		}
		old, err = io.ReadAll(f)
		f.Close()
		if err != nil {
			return edited{}, fileErr(pl, err)
		}
		mode, exists = fi.Mode().Perm(), true
	} else {
		var r *Refusal
		if !errors.As(err, &r) || r.Class != ClassNotFound {
			return edited{}, err
		}
	}
	var next []byte
	if a.Content != nil {
		next = []byte(*a.Content)
	} else {
		if !exists {
			return edited{}, &Refusal{Class: ClassNotFound, Reason: pl.Abs + " does not exist", Use: "create it with content"}
		}
		n := strings.Count(string(old), a.OldString)
		switch {
		case n == 0:
			return edited{}, &Refusal{Class: ClassNotFound, Reason: "old_string does not occur in " + pl.Abs, Use: "read the file and copy the text exactly"}
		case n > 1 && !a.ReplaceAll:
			return edited{}, &Refusal{Class: ClassBadInput, Reason: fmt.Sprintf("old_string occurs %d times in %s", n, pl.Abs), Use: "add surrounding text to make it unique, or set replace_all"}
		}
		next = []byte(strings.Replace(string(old), a.OldString, a.NewString, -1))
	}
	if int64(len(next)) > s.cfg.Limits.MaxReadBytes {
		return edited{}, &Refusal{Class: ClassLimit, Rule: "limits.max_read_bytes", Reason: fmt.Sprintf("the new content is %d bytes, over max_read_bytes (%d)", len(next), s.cfg.Limits.MaxReadBytes), Use: "write a smaller file"}
	}
	if check.name != "" {
		if err := check.fn(next); err != nil {
			return edited{}, &Refusal{Class: ClassValidation, Rule: "validate " + check.name, Reason: fmt.Sprintf("the new content of %s is not valid %s: %v; rolled back, the file is unchanged", pl.Abs, check.name, err),
				Use: "fix the content and edit again (or validate=none if it is meant to be so)"}
		}
	}
	res := edited{Abs: pl.Abs, Bytes: len(next), Check: check.name}
	if exists {
		if res.Backup, err = s.backup(pl.Abs, old); err != nil {
			return edited{}, fmt.Errorf("keep a backup of %s before editing (nothing changed): %w", pl.Abs, err)
		}
	}
	if err := replaceFile(pl, next, mode); err != nil {
		return edited{}, err
	}
	return res, nil
}

// backup keeps old in the user's state dir and returns its path.
func (s *Server) backup(abs string, old []byte) (string, error) {
	dir, err := userstate.Path(filepath.Join("mcp", "backups"))
	if err != nil {
		return "", err
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return "", err
	}
	name := time.Now().UTC().Format("20060102-150405.000000000") + "-" + strings.ReplaceAll(strings.TrimPrefix(abs, "/"), "/", "_")
	if len(name) > 200 {
		name = name[:200]
	}
	p := filepath.Join(dir, name)
	f, err := nofollow.OpenFile(p, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return "", err
	}
	if _, err := f.Write(old); err != nil {
		f.Close()
		return "", err
	}
	if err := f.Sync(); err != nil {
		f.Close()
		return "", err
	}
	return p, f.Close()
}

// replaceFile writes data to a new file beside pl and renames it over pl,
// all beneath pl's root: a reader sees the old content or the new, never a
// part, and a failure leaves the old file as it was.
func replaceFile(pl Place, data []byte, mode fs.FileMode) error {
	root, err := openRoot(pl)
	if err != nil {
		return err
	}
	defer root.Close()
	tmp := filepath.Join(filepath.Dir(pl.Rel), "."+filepath.Base(pl.Rel)+".sentinel-"+randHex())
	f, err := nofollow.OpenIn(root, tmp, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return fileErr(pl, err)
	}
	ok := false
	defer func() {
		if !ok {
			f.Close()
			root.Remove(tmp)
		}
	}()
	if _, err := f.Write(data); err != nil {
		return fmt.Errorf("write %s (nothing changed): %w", pl.Abs, err)
	}
	if err := f.Chmod(mode &^ (fs.ModeSetuid | fs.ModeSetgid | fs.ModeSticky)); err != nil {
		return fmt.Errorf("write %s (nothing changed): %w", pl.Abs, err)
	}
	if err := f.Sync(); err != nil {
		return fmt.Errorf("write %s (nothing changed): %w", pl.Abs, err)
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("write %s (nothing changed): %w", pl.Abs, err)
	}
	if err := root.Rename(tmp, pl.Rel); err != nil {
		return fmt.Errorf("write %s (nothing changed): %w", pl.Abs, err)
	}
	ok = true
	return nil
}

func randHex() string {
	var b [8]byte
	rand.Read(b[:])
	return hex.EncodeToString(b[:])
}

func (s *Server) move(from, to string, overwrite bool) (string, error) {
	src, err := s.cfg.ResolveEntry(from, AccessReadWrite)
	if err != nil {
		return "", err
	}
	dst, err := s.cfg.ResolveEntry(to, AccessReadWrite)
	if err != nil {
		return "", err
	}
	if src.Root != dst.Root {
		return "", &Refusal{Class: ClassBadInput, Reason: "move from " + src.Root + " to " + dst.Root + " crosses configured paths", Use: "copy, then delete the original"}
	}
	root, err := openRoot(src)
	if err != nil {
		return "", err
	}
	defer root.Close()
	if _, err := root.Lstat(src.Rel); err != nil {
		return "", fileErr(src, err)
	}
	if fi, err := root.Lstat(dst.Rel); err == nil {
		if !overwrite || fi.IsDir() {
			return "", &Refusal{Class: ClassBadInput, Reason: dst.Abs + " exists", Use: "choose another name, or set overwrite (not for a directory)"}
		}
	}
	if err := root.Rename(src.Rel, dst.Rel); err != nil {
		return "", fileErr(src, err)
	}
	return fmt.Sprintf("moved %s to %s", src.Abs, dst.Abs), nil
}

func (s *Server) copyFile(from, to string, overwrite bool) (string, int, error) {
	src, err := s.cfg.Resolve(from, AccessRead)
	if err != nil {
		return "", 0, err
	}
	dst, err := s.cfg.ResolveEntry(to, AccessReadWrite)
	if err != nil {
		return "", 0, err
	}
	f, fi, err := openRead(src)
	if err != nil {
		return "", 0, err
	}
	defer f.Close()
	if fi.Size() > s.cfg.Limits.MaxReadBytes {
		return "", 0, &Refusal{Class: ClassLimit, Rule: "limits.max_read_bytes", Reason: fmt.Sprintf("%s is %d bytes, over max_read_bytes (%d)", src.Abs, fi.Size(), s.cfg.Limits.MaxReadBytes), Use: "ask the person to raise [limits] max_read_bytes"}
	}
	data, err := io.ReadAll(f)
	if err != nil {
		return "", 0, fileErr(src, err)
	}
	root, err := openRoot(dst)
	if err != nil {
		return "", 0, err
	}
	fiDst, lerr := root.Lstat(dst.Rel)
	root.Close()
	if lerr == nil && (!overwrite || fiDst.IsDir() || fiDst.Mode()&fs.ModeSymlink != 0) {
		return "", 0, &Refusal{Class: ClassBadInput, Reason: dst.Abs + " exists", Use: "choose another name, or set overwrite (not for a directory or symlink)"}
	}
	if err := replaceFile(dst, data, fi.Mode().Perm()); err != nil {
		return "", 0, err
	}
	return fmt.Sprintf("copied %s to %s (%d bytes)", src.Abs, dst.Abs, len(data)), len(data), nil
}

// entry resolves p as an entry of an rw path (a symlink is the link
// itself), opens its root and reads the entry's own metadata; the caller
// closes the root.
func (s *Server) entry(p string) (Place, *os.Root, fs.FileInfo, error) {
	pl, err := s.cfg.ResolveEntry(p, AccessReadWrite)
	if err != nil {
		return pl, nil, nil, err
	}
	root, err := openRoot(pl)
	if err != nil {
		return pl, nil, nil, err
	}
	fi, err := root.Lstat(pl.Rel)
	if err != nil {
		root.Close()
		return pl, nil, nil, fileErr(pl, err)
	}
	return pl, root, fi, nil
}

func (s *Server) delete(p string, recursive bool) (string, error) {
	pl, root, fi, err := s.entry(p)
	if err != nil {
		return "", err
	}
	defer root.Close()
	if fi.IsDir() {
		if !recursive {
			if err := root.Remove(pl.Rel); err != nil {
				return "", &Refusal{Class: ClassBadInput, Reason: pl.Abs + " is a directory and not empty", Use: "set recursive to delete it and everything in it"}
			}
			return "deleted empty directory " + pl.Abs, nil
		}
		if err := root.RemoveAll(pl.Rel); err != nil {
			return "", fileErr(pl, err)
		}
		return "deleted directory " + pl.Abs + " and everything in it", nil
	}
	if err := root.Remove(pl.Rel); err != nil {
		return "", fileErr(pl, err)
	}
	if fi.Mode()&fs.ModeSymlink != 0 {
		return "deleted symlink " + pl.Abs + " (not its target)", nil
	}
	return "deleted " + pl.Abs, nil
}

func (s *Server) chmod(p, modeText string) (string, error) {
	m, err := strconv.ParseUint(modeText, 8, 32)
	if err != nil || m > 0o777 {
		return "", &Refusal{Class: ClassBadInput, Rule: "chmod", Reason: fmt.Sprintf("mode %q: give octal permission bits 000-777 (setuid, setgid and sticky are not allowed)", modeText), Use: "e.g. mode=\"644\""}
	}
	pl, root, fi, err := s.entry(p)
	if err != nil {
		return "", err
	}
	defer root.Close()
	if fi.Mode()&fs.ModeSymlink != 0 {
		return "", &Refusal{Class: ClassBadInput, Reason: pl.Abs + " is a symlink", Use: "chmod the target's own path"}
	}
	// Open without following and change the open file, so a swap to a
	// symlink after the Lstat cannot redirect the change.
	f, err := nofollow.OpenIn(root, pl.Rel, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return "", fileErr(pl, err)
	}
	defer f.Close()
	if err := f.Chmod(fs.FileMode(m)); err != nil {
		return "", fileErr(pl, err)
	}
	return fmt.Sprintf("%s is now %s", pl.Abs, fs.FileMode(m)), nil
}
