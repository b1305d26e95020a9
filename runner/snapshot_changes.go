package runner

// What changed in the working tree against HEAD, for the snapshot, at the
// cost of git's stat scan plus the changed files: `git diff-index HEAD`
// (HEAD against the working tree, through the index's stat data: staged,
// unstaged and deleted paths) and `git ls-files --others --exclude-standard`
// (untracked, not ignored) run side by side — or, where it can, one
// `git status` on a private index with git's untracked cache
// (snapshot_untracked.go) — and only the files they name
// are hashed — with `git hash-object --stdin-paths`, which applies the
// path's attributes and eol conversion as `git add` does.
//
// Where hash-object and add could hash the same file differently, or git
// reports something this code does not model, it declines (unusualError)
// and the snapshot comes from `git add -A` (snapshot.go):
//   - a submodule or nested repository among the changes (add records the
//     nested repository's HEAD);
//   - a path git may refuse (.git in any spelling, landpath.go; a symlink
//     named .gitmodules in any spelling), so add fails on it as before;
//   - a changed .gitattributes (add applies attributes path by path while
//     it updates the index; hash-object reads them once from the work tree);
//   - a tracked changed file holding a CR: for text=auto and core.autocrlf,
//     add leaves CRLF alone when the index's copy has CRs, which
//     hash-object, not reading the index, cannot know;
//   - core.fileMode false, core.ignoreCase or core.precomposeUnicode on
//     (add takes modes from the index and folds names to the index's
//     case), a sparse checkout (add leaves or refuses paths outside its
//     patterns that git found in the work tree);
//   - anything lstat disagrees with (a file changing under the scan), an
//     index file written again while the scans read it.

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
)

// pathChange is one path's entry in the snapshot where it differs from
// HEAD: a blob (mode 100644 or 100755) or symlink (120000), or, with an
// empty mode, no entry.
type pathChange struct {
	path string
	mode string
	oid  string // hex
}

// worktreeChanges lists the paths whose snapshot entry differs from HEAD's
// (or may: a file whose stat data changed but whose content did not is
// listed with its unchanged blob). Blobs it names are written to the
// object store.
//
// The two scans read the index each on its own: a person's git writing
// it between the two reads could hide a file from both (newly staged: not
// in the first's index, not untracked in the second's), so the index file
// must be the same one after the scans as before them.
func worktreeChanges(ctx context.Context, g gitCmd, head snapshotHead, scratch string, o snapshotOptions) ([]pathChange, error) {
	hexLen := len(head.commit)
	before, err := os.Stat(head.index)
	if err != nil {
		return nil, unusual("the index: %v", err)
	}
	var wg sync.WaitGroup
	var entries []rawDiffEntry
	var others, config string
	var scanErr, configErr error
	wg.Add(2)
	go func() {
		defer wg.Done()
		if o.cacheDir != "" {
			var err error
			if entries, others, err = scanWithCache(ctx, g, head, scratch, o); err == nil || isUnusual(err) || ctx.Err() != nil {
				scanErr = err
				return
			}
		}
		entries, others, scanErr = plainScans(ctx, g, head)
	}()
	go func() {
		defer wg.Done()
		config, configErr = g.run(ctx, "config", "-z", "--type=bool", "--get-regexp", `^core\.(filemode|ignorecase|precomposeunicode|sparsecheckout)$`)
	}()
	wg.Wait()
	if scanErr != nil {
		return nil, scanErr
	}
	if o.afterScan != nil {
		o.afterScan()
	}
	if after, err := os.Stat(head.index); err != nil || !sameFileVersion(before, after) {
		return nil, unusual("the index changed while it was read")
	}
	if err := checkConfig(config, configErr); err != nil {
		return nil, err
	}

	var out []pathChange
	var hash []fileToHash
	gone := map[string]bool{}
	tracked := map[string]bool{}
	for _, e := range entries {
		p := e.path
		if len(e.newOID) != hexLen {
			return nil, fmt.Errorf("git diff-index: object id %q", e.newOID)
		}
		if err := checkChangedPath(p); err != nil {
			return nil, err
		}
		switch {
		case e.status != "M" && e.status != "T" && e.status != "A" && e.status != "D":
			return nil, unusual("git diff-index status %s for %q", e.status, p)
		case e.oldMode == "160000" || e.newMode == "160000":
			return nil, unusual("a submodule at %q", p)
		case !blobMode(e.oldMode) && e.oldMode != "000000", !blobMode(e.newMode) && e.newMode != "000000":
			return nil, unusual("modes %s %s at %q", e.oldMode, e.newMode, p)
		case e.newMode == "000000":
			gone[p] = true
		case strings.Trim(e.newOID, "0") != "":
			// The index's entry, its stat data matching the file: a staged
			// change, as add would keep it.
			out = append(out, pathChange{path: p, mode: e.newMode, oid: e.newOID})
			tracked[p] = true
		default:
			hash = append(hash, fileToHash{path: p, mode: e.newMode})
			tracked[p] = true
		}
	}
	for _, p := range strings.Split(others, "\x00") {
		switch {
		case p == "":
			continue
		case strings.HasSuffix(p, "/"):
			return nil, unusual("a nested repository at %q", p)
		case tracked[p]:
			return nil, unusual("%q is both tracked and untracked", p)
		}
		if err := checkChangedPath(p); err != nil {
			return nil, err
		}
		delete(gone, p) // in HEAD, not in the index, back in the work tree
		hash = append(hash, fileToHash{path: p})
	}
	for p := range gone {
		out = append(out, pathChange{path: p})
	}
	hashed, err := hashFiles(ctx, g, scratch, hash, hexLen)
	if err != nil {
		return nil, err
	}
	out = append(out, hashed...)
	for _, c := range out {
		if c.mode == "120000" && gitmodulesLike(path.Base(c.path)) {
			return nil, unusual("%q is a symlink git refuses to add", c.path)
		}
	}
	return out, nil
}

// plainScans are diff-index against HEAD and ls-files --others, side by
// side, on the person's index.
func plainScans(ctx context.Context, g gitCmd, head snapshotHead) ([]rawDiffEntry, string, error) {
	var wg sync.WaitGroup
	var diff, others string
	var diffErr, othersErr error
	wg.Add(2)
	go func() {
		defer wg.Done()
		diff, diffErr = g.run(ctx, "diff-index", "-z", "--no-renames", "--ignore-submodules=dirty", head.commit, "--")
	}()
	go func() {
		defer wg.Done()
		others, othersErr = g.run(ctx, "ls-files", "-z", "--others", "--exclude-standard", "--", ".")
	}()
	wg.Wait()
	if err := errors.Join(diffErr, othersErr); err != nil {
		return nil, "", err
	}
	entries, err := parseRawDiff(diff)
	return entries, others, err
}

// sameFileVersion reports whether two stats are of one version of a file:
// git replaces the index by renaming a new file over it, so a new version
// is a new inode.
func sameFileVersion(a, b os.FileInfo) bool {
	return os.SameFile(a, b) && a.Size() == b.Size() && a.ModTime().Equal(b.ModTime())
}

// checkConfig declines the settings of declinedConfig. git config exits 1
// when none is set.
func checkConfig(out string, err error) error {
	var exit *exec.ExitError
	if err != nil && !(errors.As(err, &exit) && exit.ExitCode() == 1 && out == "") {
		return err
	}
	for _, kv := range strings.Split(out, "\x00") {
		k, v, _ := strings.Cut(kv, "\n")
		if kv != "" && declinedConfig[k] == v {
			return unusual("%s is %s", k, v)
		}
	}
	return nil
}

// declinedConfig holds, by the value that declines, the settings under
// which add records other modes or names than the work tree's (file modes
// not trusted, names folded to the index's case or composed), and sparse
// checkout, where add refuses or leaves
// paths outside the sparse patterns that the two scans do not tell apart.
var declinedConfig = map[string]string{
	"core.filemode":          "false",
	"core.ignorecase":        "true",
	"core.precomposeunicode": "true",
	"core.sparsecheckout":    "true",
}

// checkChangedPath declines a changed .gitattributes, and any path git
// may refuse in an index (.git in any spelling: add fails on it).
func checkChangedPath(p string) error {
	if path.Base(p) == ".gitattributes" {
		return unusual("%q changed", p)
	}
	if why := forbiddenPath(p); why != "" {
		return unusual("%q %s", p, why)
	}
	return nil
}

// gitmodulesLike reports whether name may be .gitmodules as git's
// core.protectHFS and core.protectNTFS see it (case, ignored code points,
// trailing dots and spaces, a stream suffix, an 8.3 short name such as
// GITMOD~1 or GI7EBA~1): git refuses a symlink so named, which would
// have a checkout read .gitmodules from outside the tree. Wider than git's
// own test: a name it takes in wrongly only costs the quick path.
func gitmodulesLike(name string) bool {
	n := strings.ToLower(fsName(name))
	if short, _, ok := strings.Cut(n, "~"); ok && short != "" && (strings.HasPrefix("gitmod", short) || strings.HasPrefix("gi7eba", short)) {
		return true
	}
	return n == ".gitmodules"
}

// blobMode reports whether m is the mode of a file or symlink entry.
func blobMode(m string) bool { return m == "100644" || m == "100755" || m == "120000" }

// fileToHash is a changed path whose content git has not hashed yet.
type fileToHash struct {
	path string
	mode string // git diff-index's mode for a tracked file, "" for an untracked one
}

func (f fileToHash) tracked() bool { return f.mode != "" }

// hashFiles writes the blobs of the files: regular files through one
// `git hash-object -w --stdin-paths` (with their attributes, as add),
// symlinks' targets through one more with --no-filters (hash-object would
// follow the link).
func hashFiles(ctx context.Context, g gitCmd, scratch string, files []fileToHash, hexLen int) ([]pathChange, error) {
	var regular, links []pathChange
	var targets []string
	for _, f := range files {
		full := filepath.Join(g.dir, filepath.FromSlash(f.path))
		st, err := os.Lstat(full)
		if err != nil {
			return nil, unusual("%q: %v", f.path, err)
		}
		mode := "100644"
		switch {
		case st.Mode()&os.ModeSymlink != 0:
			mode = "120000"
			target, err := os.Readlink(full)
			if err != nil {
				return nil, unusual("%q: %v", f.path, err)
			}
			targets = append(targets, target)
		case !st.Mode().IsRegular():
			return nil, unusual("%q is not a file", f.path)
		case st.Mode()&0o100 != 0:
			mode = "100755"
		}
		if f.tracked() && f.mode != mode {
			return nil, unusual("%q: git saw mode %s, lstat %s", f.path, f.mode, mode)
		}
		if mode == "120000" {
			links = append(links, pathChange{path: f.path, mode: mode})
			continue
		}
		if f.tracked() {
			if cr, err := holdsCR(full); err != nil || cr {
				return nil, unusual("%q holds a CR or cannot be read (%v)", f.path, err)
			}
		}
		regular = append(regular, pathChange{path: f.path, mode: mode})
	}
	names := make([]string, len(regular))
	for i, c := range regular {
		names[i] = c.path
	}
	if err := hashPaths(ctx, g, regular, names, hexLen); err != nil {
		return nil, err
	}
	if len(links) > 0 {
		dir, err := os.MkdirTemp(scratch, "snapshot-links-")
		if err != nil {
			return nil, err
		}
		defer os.RemoveAll(dir)
		names := make([]string, len(targets))
		for i, t := range targets {
			names[i] = filepath.Join(dir, strconv.Itoa(i))
			if err := os.WriteFile(names[i], []byte(t), 0o600); err != nil {
				return nil, err
			}
		}
		if err := hashPaths(ctx, g, links, names, hexLen, "--no-filters"); err != nil {
			return nil, err
		}
	}
	return append(regular, links...), nil
}

// hashPaths sets changes[i].oid to the blob git writes for names[i].
func hashPaths(ctx context.Context, g gitCmd, changes []pathChange, names []string, hexLen int, flags ...string) error {
	if len(names) == 0 {
		return nil
	}
	var in strings.Builder
	for _, n := range names {
		in.WriteString(cQuote(n))
		in.WriteByte('\n')
	}
	args := append([]string{"hash-object", "-w", "--stdin-paths"}, flags...)
	out, err := g.input([]byte(in.String())).run(ctx, args...)
	if err != nil {
		return err
	}
	oids := strings.Fields(out)
	if len(oids) != len(names) {
		return fmt.Errorf("git hash-object: %d ids for %d files", len(oids), len(names))
	}
	for i, id := range oids {
		if len(id) != hexLen {
			return fmt.Errorf("git hash-object: unexpected id %q", id)
		}
		changes[i].oid = id
	}
	return nil
}

// cQuote quotes a path the way `git hash-object --stdin-paths` unquotes a
// line that starts with a double quote, so any byte but NUL passes.
func cQuote(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '"' || c == '\\':
			b.WriteByte('\\')
			b.WriteByte(c)
		case c < 0x20 || c == 0x7f:
			fmt.Fprintf(&b, "\\%03o", c)
		default:
			b.WriteByte(c)
		}
	}
	b.WriteByte('"')
	return b.String()
}

// holdsCR reports whether the file has a carriage return in it.
func holdsCR(name string) (bool, error) {
	f, err := os.Open(name)
	if err != nil {
		return false, err
	}
	defer f.Close()
	buf := make([]byte, 64<<10)
	for {
		n, err := f.Read(buf)
		if bytes.IndexByte(buf[:n], '\r') >= 0 {
			return true, nil
		}
		if err == io.EOF {
			return false, nil
		}
		if err != nil {
			return false, err
		}
	}
}
