package gitrest

import (
	"path/filepath"
	"strings"

	"github.com/sentinelhq/sentinel/internal/gitdir"
)

// A coder's ordinary commit on the checked-out branch appends one line to
// HEAD's reflog and one to the branch's, each pointing at a commit the
// coder made. Named on every run, that is noise that hides the lines that
// matter; the commit is already in the report as the branch's move. So
// appended lines that are only that — each a `commit` entry (initial and
// merge included; an amend is not), the chain unbroken (each entry's old
// id is the one before's new id), each new id an object the coder made,
// the last the branch's tip now, on HEAD's reflog or the reflog of the
// branch HEAD names — are not named as a change of the rest; Commits
// counts them for the branch's line. Anything else appended (a checkout,
// a reset, a rebase, another branch, a line pointing at an object the
// coder did not make) is named as before.

// commitPrefixes are the messages git writes for a plain commit.
var commitPrefixes = []string{"commit: ", "commit (initial): ", "commit (merge): "}

// checkedOut is the branch HEAD names and its tip now ("" for a detached
// HEAD or one that cannot be read).
func (d Dirs) checkedOut() (branch, tip string) {
	b, err := readBounded(filepath.Join(d.GitDir, "HEAD"))
	if err != nil {
		return "", ""
	}
	head := strings.TrimSpace(string(b))
	if !strings.HasPrefix(head, "ref: refs/heads/") {
		return "", ""
	}
	branch = strings.TrimPrefix(head, "ref: ")
	refs, err := gitdir.ReadRefs(d.GitDir, d.common())
	if err != nil {
		return "", ""
	}
	return branch, refs.Refs[branch]
}

// reflogRef is the ref whose reflog p is ("HEAD", "refs/heads/x"), "".
func (d Dirs) reflogRef(p string) string {
	for _, dir := range d.list() {
		logs := filepath.Join(dir, "logs")
		if within(p, logs) && p != logs {
			rel, _ := filepath.Rel(logs, p)
			return filepath.ToSlash(rel)
		}
	}
	return ""
}

// ordinaryCommits says whether added, the lines appended to the reflog at
// p, are only the coder's ordinary commits on the checked-out branch, and
// how many there are.
func (d Dirs) ordinaryCommits(p string, added []byte) (int, bool) {
	if d.Made == nil {
		return 0, false
	}
	ref := d.reflogRef(p)
	branch, tip := d.checkedOut()
	if branch == "" || tip == "" || ref != "HEAD" && ref != branch {
		return 0, false
	}
	text := strings.TrimSuffix(string(added), "\n")
	if text == "" {
		return 0, false
	}
	lines := strings.Split(text, "\n")
	if len(lines) > maxMadeChecks {
		return 0, false
	}
	prev := ""
	for i, l := range lines {
		head, msg, ok := strings.Cut(l, "\t")
		f := strings.Fields(head)
		if !ok || len(f) < 2 || !isHex(f[0]) || !isHex(f[1]) || !hasAnyPrefix(msg, commitPrefixes) {
			return 0, false
		}
		if i > 0 && f[0] != prev || !d.Made(f[1]) {
			return 0, false
		}
		prev = f[1]
	}
	return len(lines), prev == tip
}

func hasAnyPrefix(s string, prefixes []string) bool {
	for _, p := range prefixes {
		if strings.HasPrefix(s, p) {
			return true
		}
	}
	return false
}

// Commits counts, by branch, the coder's ordinary commits on the
// checked-out branch that Changes leaves out (see above): read from the
// branch's own reflog, or HEAD's where the branch keeps none.
func Commits(d Dirs, before, now *Rest) map[string]int {
	out := map[string]int{}
	branch, _ := d.checkedOut()
	if branch == "" {
		return out
	}
	for p, a := range now.stamps {
		ref := d.reflogRef(p)
		if ref != branch && ref != "HEAD" || !strings.HasPrefix(a, "file") {
			continue
		}
		added, ok := appended(p, before.stamps[p])
		if !ok {
			continue
		}
		if n, ok := d.ordinaryCommits(p, added); ok && (ref == branch || out[branch] == 0) {
			out[branch] = n
		}
	}
	return out
}

// appended is what was appended to the file at p since its stamp before
// ("" before: all of it); false when it was rewritten or cannot be read.
func appended(p, before string) ([]byte, bool) {
	now, err := readBounded(p)
	if err != nil {
		return nil, false
	}
	if before == "" {
		return now, true
	}
	size, sum, ok := sizeAndHash(before)
	if !ok || int64(len(now)) < size || hashOf(now[:size]) != sum {
		return nil, false
	}
	return now[size:], true
}
