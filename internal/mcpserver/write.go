package mcpserver

import (
	"context"
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
)

// editArgs is what the edit tool takes.
type editArgs struct {
	Path       string  `json:"path" jsonschema:"absolute path of the file to write (under an rw path)"`
	Content    *string `json:"content,omitempty" jsonschema:"the whole new content (creates the file if missing)"`
	OldString  string  `json:"old_string,omitempty" jsonschema:"exact text to replace (with new_string)"`
	NewString  string  `json:"new_string,omitempty" jsonschema:"replacement for old_string"`
	ReplaceAll bool    `json:"replace_all,omitempty" jsonschema:"replace every occurrence of old_string (default: it must occur once)"`
	Validate   string  `json:"validate,omitempty" jsonschema:"auto (by extension, the default), none, json, yaml, toml, go, sh, python, nginx or systemd"`
}

// edited is what an edit did.
type edited struct {
	Abs    string
	Backup string // "" for a new file
	Bytes  int
	Check  string // the validation applied ("" for none)
}

func (s *Server) edit(ctx context.Context, a editArgs) (edited, error) {
	if a.Content == nil && a.OldString == "" {
		return edited{}, &Refusal{Class: ClassBadInput, Reason: "edit needs content, or old_string and new_string", Use: "send content (the whole file) or old_string + new_string"}
	}
	if a.Content != nil && a.OldString != "" {
		return edited{}, &Refusal{Class: ClassBadInput, Reason: "edit got both content and old_string", Use: "send one of them"}
	}
	if s.cfg.sudoFile(a.Path) {
		return s.sudoEdit(ctx, a)
	}
	program := programFor(a.Validate, a.Path)
	var check validator
	var err error
	if program == "" {
		if check, err = validatorFor(a.Validate, a.Path); err != nil {
			return edited{}, err
		}
	}
	pl, err := s.cfg.Resolve(a.Path, AccessReadWrite)
	if err != nil {
		return edited{}, err
	}
	if pl.Rel == "." {
		return edited{}, &Refusal{Class: ClassBadInput, Reason: pl.Abs + " is a configured directory", Use: "name a file inside it"}
	}
	r, err := s.reach(pl, AccessReadWrite)
	if err != nil {
		return edited{}, err
	}
	defer r.close()
	var old []byte
	var mode fs.FileMode = 0o644
	exists := false
	if f, fi, err := s.openRead(pl); err == nil {
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
		if err := replacedFits(pl.Abs, len(old), n, a.OldString, a.NewString, s.cfg.Limits.MaxReadBytes); err != nil {
			return edited{}, err
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
	if program != "" {
		if err := s.checkWithProgram(ctx, program, r, next); err != nil {
			return edited{}, err
		}
		check.name = program
	}
	res := edited{Abs: pl.Abs, Bytes: len(next), Check: check.name}
	dir, name, err := s.aboutToDestroy("edit", pl.Abs, exists)
	if err != nil {
		return edited{}, err
	}
	if exists {
		if res.Backup, err = s.backup(dir, name, old); err != nil {
			return edited{}, fmt.Errorf("keep a backup of %s before editing (nothing changed): %w", pl.Abs, err)
		}
	}
	if err := s.replaceFile(r, next, mode); err != nil {
		return edited{}, err
	}
	return res, nil
}

// replacedFits refuses a replace_all whose result would be over max bytes
// before it is built: n occurrences of oldString in size bytes, each
// replaced by newString. Built first and measured after, 1 MiB of "a"
// with a 4 KiB new_string asked the server for 4 GiB in one call (the
// server died of it, or the machine ran out of memory).
func replacedFits(abs string, size, n int, oldString, newString string, max int64) error {
	if want := int64(size) + int64(n)*(int64(len(newString))-int64(len(oldString))); want > max {
		return &Refusal{Class: ClassLimit, Rule: "limits.max_read_bytes", Reason: fmt.Sprintf("the new content would be %d bytes (%d replacements), over max_read_bytes (%d); nothing changed", want, n, max), Use: "write a smaller file"}
	}
	return nil
}

// aboutToDestroy journals that tool is about to replace or remove abs
// (audit.aboutToAct), with where what it destroys will be kept when keep:
// the backups dir and the backup's name there (plannedBackup). An error
// refuses the call before anything changed.
func (s *Server) aboutToDestroy(tool, abs string, keep bool) (dir, name string, err error) {
	var path string
	if keep {
		if dir, name, path, err = plannedBackup(abs); err != nil {
			return "", "", fmt.Errorf("keep a backup of %s (nothing changed): %w", abs, err)
		}
	}
	return dir, name, s.audit.aboutToAct(Act{Tool: tool, Path: abs, Backup: path})
}

// backup keeps old in the backups dir (dir, as name: see plannedBackup)
// and returns its path.
func (s *Server) backup(dir, name string, old []byte) (string, error) {
	root, err := os.OpenRoot(dir)
	if err != nil {
		return "", err
	}
	defer root.Close()
	f, err := root.OpenFile(name, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return "", err
	}
	p := filepath.Join(dir, name)
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

// replaceFile writes data to a new file beside r's entry and renames it
// over the entry, all in r's held directory: a reader sees the old content
// or the new, never a part, and a failure leaves the old file as it was.
func (s *Server) replaceFile(r reached, data []byte, mode fs.FileMode) error {
	pl := r.pl
	tmp := "." + r.name + ".sentinel-" + randHex()
	if len(tmp) > 250 {
		tmp = ".sentinel-" + randHex()
	}
	f, err := r.dir.OpenFile(tmp, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return fileErr(pl, err)
	}
	ok := false
	defer func() {
		if !ok {
			f.Close()
			r.dir.Remove(tmp)
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
	if err := s.files.Rename(r.dir, tmp, r.dir, r.name, false); err != nil {
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

// kept says where what an operation replaced or removed was kept.
func kept(backup string) string {
	if backup == "" {
		return ""
	}
	return "; backup of what was there: " + backup
}

func (s *Server) move(from, to string, overwrite bool) (string, string, error) {
	src, err := s.cfg.ResolveEntry(from, AccessReadWrite)
	if err != nil {
		return "", "", err
	}
	dst, err := s.cfg.ResolveEntry(to, AccessReadWrite)
	if err != nil {
		return "", "", err
	}
	if src.Root != dst.Root {
		return "", "", &Refusal{Class: ClassBadInput, Reason: "move from " + src.Root + " to " + dst.Root + " crosses configured paths", Use: "copy, then delete the original"}
	}
	rs, err := s.reach(src, AccessReadWrite)
	if err != nil {
		return "", "", err
	}
	defer rs.close()
	st, err := rs.lstat()
	if err != nil {
		return "", "", fileErr(src, err)
	}
	if st.IsDir() {
		if err := s.scanTree(rs); err != nil {
			return "", "", err
		}
	}
	rd, err := s.reach(dst, AccessReadWrite)
	if err != nil {
		return "", "", err
	}
	defer rd.close()
	backup := ""
	if dt, err := rd.lstat(); err == nil {
		if !overwrite || dt.IsDir() {
			return "", "", &Refusal{Class: ClassBadInput, Reason: dst.Abs + " exists", Use: "choose another name, or set overwrite (not for a directory)"}
		}
		dir, name, err := s.aboutToDestroy("move", dst.Abs, true)
		if err != nil {
			return "", "", err
		}
		if backup, err = s.keepAside(rd, dir, name); err != nil {
			return "", "", fmt.Errorf("keep a backup of %s before overwriting it (nothing changed): %w", dst.Abs, err)
		}
	}
	err = s.files.Rename(rs.dir, rs.name, rd.dir, rd.name, true)
	if err != nil {
		if backup != "" {
			return "", backup, fmt.Errorf("move %s to %s: %w (what was at %s is kept as %s)", src.Abs, dst.Abs, err, dst.Abs, backup)
		}
		return "", "", fileErr(src, err)
	}
	return fmt.Sprintf("moved %s to %s", src.Abs, dst.Abs) + kept(backup), backup, nil
}

func (s *Server) copyFile(from, to string, overwrite bool) (string, int, string, error) {
	src, err := s.cfg.Resolve(from, AccessRead)
	if err != nil {
		return "", 0, "", err
	}
	dst, err := s.cfg.ResolveEntry(to, AccessReadWrite)
	if err != nil {
		return "", 0, "", err
	}
	f, fi, err := s.openRead(src)
	if err != nil {
		return "", 0, "", err
	}
	defer f.Close()
	if fi.Size() > s.cfg.Limits.MaxReadBytes {
		return "", 0, "", &Refusal{Class: ClassLimit, Rule: "limits.max_read_bytes", Reason: fmt.Sprintf("%s is %d bytes, over max_read_bytes (%d)", src.Abs, fi.Size(), s.cfg.Limits.MaxReadBytes), Use: "ask the person to raise [limits] max_read_bytes"}
	}
	data, err := io.ReadAll(io.LimitReader(f, s.cfg.Limits.MaxReadBytes+1))
	if err != nil {
		return "", 0, "", fileErr(src, err)
	}
	rd, err := s.reach(dst, AccessReadWrite)
	if err != nil {
		return "", 0, "", err
	}
	defer rd.close()
	backup := ""
	if dt, err := rd.lstat(); err == nil {
		if !overwrite || !dt.Mode().IsRegular() {
			return "", 0, "", &Refusal{Class: ClassBadInput, Reason: dst.Abs + " exists", Use: "choose another name, or set overwrite (not for a directory or symlink)"}
		}
		dir, name, err := s.aboutToDestroy("copy", dst.Abs, true)
		if err != nil {
			return "", 0, "", err
		}
		if backup, err = s.keepCopy(rd, dir, name); err != nil {
			return "", 0, "", err
		}
	}
	if err := s.replaceFile(rd, data, fi.Mode().Perm()); err != nil {
		return "", 0, backup, err
	}
	return fmt.Sprintf("copied %s to %s (%d bytes)", src.Abs, dst.Abs, len(data)) + kept(backup), len(data), backup, nil
}

// entry resolves p as an entry of an rw path (a symlink is the link
// itself), reaches it and reads its own metadata; the caller closes it.
func (s *Server) entry(p string) (reached, fs.FileInfo, error) {
	var st fs.FileInfo
	pl, err := s.cfg.ResolveEntry(p, AccessReadWrite)
	if err != nil {
		return reached{}, st, err
	}
	r, err := s.reach(pl, AccessReadWrite)
	if err != nil {
		return reached{}, st, err
	}
	if st, err = r.lstat(); err != nil {
		r.close()
		return reached{}, st, fileErr(pl, err)
	}
	return r, st, nil
}

// delete keeps what it deletes: the entry (a whole tree when recursive) is
// moved into the backups, and the answer names where.
func (s *Server) delete(p string, recursive bool) (string, string, error) {
	r, st, err := s.entry(p)
	if err != nil {
		return "", "", err
	}
	defer r.close()
	pl := r.pl
	what := pl.Abs
	switch {
	case st.IsDir():
		if !recursive {
			if _, _, err := s.aboutToDestroy("delete", pl.Abs, false); err != nil {
				return "", "", err
			}
			if err := r.dir.Remove(r.name); err != nil {
				return "", "", &Refusal{Class: ClassBadInput, Reason: pl.Abs + " is a directory and not empty", Use: "set recursive to delete it and everything in it"}
			}
			return "deleted empty directory " + pl.Abs + " (nothing in it to keep)", "", nil
		}
		if err := s.scanTree(r); err != nil {
			return "", "", err
		}
		what = "directory " + pl.Abs + " and everything in it"
	case st.Mode()&fs.ModeSymlink != 0:
		what = "symlink " + pl.Abs + " (not its target)"
	}
	dir, name, err := s.aboutToDestroy("delete", pl.Abs, true)
	if err != nil {
		return "", "", err
	}
	backup, err := s.keepAside(r, dir, name)
	if err != nil {
		return "", "", err
	}
	return "deleted " + what + kept(backup), backup, nil
}

func (s *Server) chmod(p, modeText string) (string, error) {
	m, err := strconv.ParseUint(modeText, 8, 32)
	if err != nil || m > 0o777 {
		return "", &Refusal{Class: ClassBadInput, Rule: "chmod", Reason: fmt.Sprintf("mode %q: give octal permission bits 000-777 (setuid, setgid and sticky are not allowed)", modeText), Use: "e.g. mode=\"644\""}
	}
	r, st, err := s.entry(p)
	if err != nil {
		return "", err
	}
	defer r.close()
	pl := r.pl
	if st.Mode()&fs.ModeSymlink != 0 {
		return "", &Refusal{Class: ClassBadInput, Reason: pl.Abs + " is a symlink", Use: "chmod the target's own path"}
	}
	// Open without following and change the open file, so a swap to a
	// symlink after the check cannot redirect the change.
	f, err := s.openOwned(r, "chmod")
	if err != nil {
		return "", err
	}
	defer f.Close()
	if err := f.Chmod(fs.FileMode(m)); err != nil {
		return "", fileErr(pl, err)
	}
	return fmt.Sprintf("%s is now %s", pl.Abs, fs.FileMode(m)), nil
}
