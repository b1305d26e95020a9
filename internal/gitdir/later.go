package gitdir

import (
	"bufio"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/sentinelhq/sentinel/internal/nofollow"
)

// What in a git dir git acts on later, without the person seeing it, though
// every object is genuine (issue 31):
//
//   - a replace ref (refs/replace/<id>, loose or in packed-refs) makes git
//     use another object's content wherever <id> is named: `git checkout --
//     Makefile` writes the replacement; info/grafts and shallow give commits
//     other parents;
//   - a left-over rebase, cherry-pick, revert, merge or bisect (rebase-merge/,
//     rebase-apply/, sequencer/, MERGE_HEAD, CHERRY_PICK_HEAD, REVERT_HEAD,
//     BISECT_*): the person's `git rebase --continue` runs its exec lines on
//     the host, `--abort` resets hard to the orig-head the writer chose.
//
// SnapLater remembers these as they are; Later.Changed names each that is
// new or changed since, for the caller to move out (never delete) and report.

// laterGitDir are the entries of a (per-worktree) git dir, laterCommon those
// of the common dir.
var (
	laterGitDir = []string{"rebase-merge", "rebase-apply", "sequencer", "MERGE_HEAD", "CHERRY_PICK_HEAD", "REVERT_HEAD",
		"BISECT_START", "BISECT_LOG", "BISECT_RUN", "BISECT_TERMS", "BISECT_EXPECTED_REV", "BISECT_NAMES", "BISECT_HEAD", "BISECT_ANCESTORS_OK"}
	laterCommon = []string{"shallow", filepath.Join("info", "grafts")}
)

// maxLaterBytes bounds how much of one entry is hashed.
const maxLaterBytes = 16 << 20

// Later is a git dir's run-later state at a moment: each entry's
// fingerprint by path, and the replace refs in packed-refs.
type Later struct {
	gitDir, common string
	sums           map[string]string
	packed         map[string]string // refs/replace/… → id, in packed-refs or reftable
}

// LaterItem is one run-later entry that is new or changed.
type LaterItem struct {
	// Path is the file or directory to move out; "" for a replace ref that
	// lives only in packed-refs (Ref names it: delete it with git).
	Path string
	Ref  string
	ID   string // a packed ref's value
	// What says what it is and what git would do with it, one line.
	What string
}

// SnapLater remembers the run-later state of the git dir gitDir and its
// common dir common (the same for a main checkout).
func SnapLater(gitDir, common string) *Later {
	l := &Later{gitDir: gitDir, common: common, sums: map[string]string{}}
	l.packed, _ = storedReplace(gitDir, common)
	for _, p := range l.paths() {
		if s := fingerprint(p); s != "" {
			l.sums[p] = s
		}
	}
	return l
}

// paths are the entries to look at now: the fixed names and every loose
// replace ref.
func (l *Later) paths() []string {
	var out []string
	for _, n := range laterGitDir {
		out = append(out, filepath.Join(l.gitDir, n))
		// In a linked worktree the main checkout's own state sits in
		// the common dir, as writable and as acted on later.
		if l.common != "" && l.common != l.gitDir {
			out = append(out, filepath.Join(l.common, n))
		}
	}
	for _, n := range laterCommon {
		out = append(out, filepath.Join(l.common, n))
	}
	rr := filepath.Join(l.common, "refs", "replace")
	_ = filepath.WalkDir(rr, func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			out = append(out, p)
		}
		return nil
	})
	return out
}

// Changed is every run-later entry that is new or changed since the
// snapshot.
func (l *Later) Changed() []LaterItem {
	var out []LaterItem
	for _, p := range l.paths() {
		s := fingerprint(p)
		if s == "" || l.sums[p] == s {
			continue
		}
		out = append(out, LaterItem{Path: p, What: describeLater(l, p)})
	}
	now, where := storedReplace(l.gitDir, l.common)
	var refs []string
	for r := range now {
		refs = append(refs, r)
	}
	slices.Sort(refs)
	for _, r := range refs {
		if l.packed[r] != now[r] {
			out = append(out, LaterItem{Ref: r, ID: now[r], What: fmt.Sprintf("the replace ref %s (in %s): git would use the content of %s wherever %s is named, a checkout included", r, where, short(now[r]), short(strings.TrimPrefix(r, "refs/replace/")))})
		}
	}
	return out
}

// Forget takes it as the state now (after the caller dealt with what
// Changed named, or left it).
func (l *Later) Forget() {
	*l = *SnapLater(l.gitDir, l.common)
}

func short(id string) string {
	if len(id) > 12 {
		return id[:12]
	}
	return id
}

// LaterName says whether name, an entry of a git dir, is a left-over
// rebase, cherry-pick, revert, merge or bisect state.
func LaterName(name string) bool {
	return slices.Contains(laterGitDir, name)
}

// describeLater says what the entry p is.
func describeLater(l *Later, p string) string {
	base := filepath.Base(p)
	if strings.HasPrefix(p, filepath.Join(l.common, "refs", "replace")+string(filepath.Separator)) {
		b, _ := readSmall(p)
		return fmt.Sprintf("the replace ref refs/replace/%s: git would use the content of %s wherever %s is named, a checkout included", base, short(strings.TrimSpace(string(b))), short(base))
	}
	return DescribeLater(base, p)
}

// DescribeLater says what the run-later entry named name (shallow,
// rebase-merge, MERGE_HEAD…), now at p (its place, or where it was moved
// to), is and what git would do with it.
func DescribeLater(name, p string) string {
	base := name
	switch {
	case base == "shallow":
		return "a shallow file: git would take the commits it lists for having no parents"
	case base == "grafts":
		return "info/grafts: git would give commits the parents it lists"
	case base == "rebase-merge" || base == "rebase-apply" || base == "sequencer":
		s := "a left-over rebase/cherry-pick/revert state (" + base + "/): `git rebase --continue` would go on with it"
		if ex := execLines(p); len(ex) > 0 {
			s += " and run its exec lines on your machine: " + strings.Join(ex, "; ")
		}
		if b, err := readSmall(filepath.Join(p, "orig-head")); err == nil {
			s += "; `--abort` would reset hard to " + short(strings.TrimSpace(string(b)))
		}
		return s
	case strings.HasPrefix(base, "BISECT_"):
		return "a left-over bisect state (" + base + ")"
	}
	return "a left-over merge/cherry-pick/revert state (" + base + "): your next `git commit` would record it"
}

// execLines are the exec lines of the todo lists under the rebase or
// sequencer dir d.
func execLines(d string) []string {
	var out []string
	for _, n := range []string{"git-rebase-todo", "todo"} {
		b, err := readSmall(filepath.Join(d, n))
		if err != nil {
			continue
		}
		sc := bufio.NewScanner(strings.NewReader(string(b)))
		for sc.Scan() {
			line := strings.TrimSpace(sc.Text())
			if cmd, ok := strings.CutPrefix(line, "exec "); ok {
				out = append(out, strings.TrimSpace(cmd))
			} else if cmd, ok := strings.CutPrefix(line, "x "); ok {
				out = append(out, strings.TrimSpace(cmd))
			}
		}
	}
	return out
}

func readSmall(p string) ([]byte, error) {
	f, err := nofollow.OpenFile(p, os.O_RDONLY, 0)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return io.ReadAll(io.LimitReader(f, 1<<20))
}

// fingerprint is a hash of p (a file, link or directory, nothing
// followed): names, modes and contents; "" when p does not exist.
func fingerprint(p string) string {
	if _, err := os.Lstat(p); err != nil {
		return ""
	}
	h := sha256.New()
	left := int64(maxLaterBytes)
	_ = filepath.WalkDir(p, func(q string, d fs.DirEntry, err error) error {
		rel, _ := filepath.Rel(p, q)
		if err != nil {
			fmt.Fprintf(h, "%s\x00err\x00", rel)
			return nil
		}
		fi, ierr := d.Info()
		if ierr != nil {
			return nil
		}
		fmt.Fprintf(h, "%s\x00%v\x00%d\x00", rel, fi.Mode(), fi.Size())
		if fi.Mode().IsRegular() && left > 0 {
			if f, err := nofollow.OpenFile(q, os.O_RDONLY, 0); err == nil {
				n, _ := io.Copy(h, io.LimitReader(f, left))
				left -= n
				f.Close()
			}
		} else if fi.Mode()&fs.ModeSymlink != 0 {
			t, _ := os.Readlink(q)
			fmt.Fprintf(h, "%s\x00", t)
		}
		return nil
	})
	return hex.EncodeToString(h.Sum(nil))
}

// storedReplace are the replace refs not kept as loose files: those of
// packed-refs, or of a reftable repository (ReadRefs), and where they are.
// A stack that cannot be read is named as one entry, so that it counts as
// changed rather than as empty.
func storedReplace(gitDir, common string) (map[string]string, string) {
	out := map[string]string{}
	s, err := ReadRefs(gitDir, common)
	if err != nil {
		out["refs/replace/(unreadable)"] = err.Error()
		return out, "packed-refs or reftable"
	}
	for name, id := range s.Stored {
		if strings.HasPrefix(name, "refs/replace/") {
			out[name] = id
		}
	}
	if s.Reftable {
		return out, "reftable"
	}
	return out, "packed-refs"
}

func readSmallN(p string, n int64) ([]byte, error) {
	f, err := nofollow.OpenFile(p, os.O_RDONLY, 0)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return io.ReadAll(io.LimitReader(f, n))
}
