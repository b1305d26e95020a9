package gitrest

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"

	"github.com/sentinelhq/sentinel/internal/gitdir"
	"github.com/sentinelhq/sentinel/internal/nofollow"
	"github.com/sentinelhq/sentinel/internal/textsafe"
)

// maxPointsRead bounds how much of a FETCH_HEAD, ORIG_HEAD or reflog is
// read to say what it points to; maxIDs how many ids one line names.
const (
	maxPointsRead = 16 << 20
	maxIDs        = 5
	maxMadeChecks = 50 // of one reflog's new lines, asked of Dirs.Made
)

// pointsLine names a FETCH_HEAD, ORIG_HEAD or reflog (top) at p that is
// new or whose content changed since the stamp before (had: it was there),
// with what it now points to; "" when the change is routine: a reflog only
// appended to with lines that point at no object the coder made, or only
// with the coder's ordinary commits on the checked-out branch (commits.go).
func (d Dirs) pointsLine(p, top, before string, had bool) string {
	now, err := readBounded(p)
	if err != nil {
		return "changed " + textsafe.Line(p) + " (unreadable now: " + textsafe.Line(err.Error()) + ")"
	}
	shown := textsafe.Line(p)
	verb := "changed "
	if !had {
		verb = "new "
	}
	if top != "logs" {
		ids := firstWords(now, 0)
		what := map[string]string{
			"ORIG_HEAD":  "`git reset --hard ORIG_HEAD` puts it into your files",
			"FETCH_HEAD": "`git merge FETCH_HEAD` or `git pull` takes it",
		}[top]
		return verb + shown + " — now points to " + d.describe(ids) + ": " + what
	}
	added := now
	if had {
		size, sum, ok := sizeAndHash(before)
		if !ok || int64(len(now)) < size || hashOf(now[:size]) != sum {
			last := lastWord(now)
			return "changed " + shown + " — a reflog rewritten, not only appended to: `@{n}` and `git checkout -` now lead elsewhere; its last entry points to " + d.describe(last)
		}
		added = now[size:]
	}
	if _, ok := d.ordinaryCommits(p, added); ok {
		return "" // the coder's commits on your branch: its move says so (commits.go)
	}
	ids := firstWords(added, 1)
	if len(ids) > maxMadeChecks {
		ids = ids[len(ids)-maxMadeChecks:] // the latest: where @{1} and its neighbours lead
	}
	var made []string
	for _, id := range ids {
		if d.Made != nil && d.Made(id) {
			made = append(made, id)
		}
	}
	if len(made) == 0 {
		return ""
	}
	n := bytes.Count(added, []byte("\n"))
	return fmt.Sprintf("%s%s — %d new reflog entries, pointing to %s (`@{n}` and `git checkout -` lead there); its last entry points to %s", verb, shown, n, d.describe(made), d.describe(lastWord(now)))
}

// describe names object ids, each said to be the coder's where it is.
func (d Dirs) describe(ids []string) string {
	if len(ids) == 0 {
		return "nothing"
	}
	var out []string
	for i, id := range ids {
		if i == maxIDs {
			out = append(out, fmt.Sprintf("and %d more", len(ids)-i))
			break
		}
		s := textsafe.Line(id)
		if d.Made != nil && d.Made(id) {
			s += " (an object the coder made)"
		}
		out = append(out, s)
	}
	return strings.Join(out, ", ")
}

// firstWords are the word-th (0-based) whitespace-separated word of each
// line of b that looks like an object id, each once.
func firstWords(b []byte, word int) []string {
	var out []string
	for _, l := range strings.Split(string(b), "\n") {
		f := strings.Fields(l)
		if len(f) > word && isHex(f[word]) && !contains(out, f[word]) {
			out = append(out, f[word])
		}
	}
	return out
}

// lastWord is the new id of a reflog's last entry (its second word).
func lastWord(b []byte) []string {
	ls := strings.Split(strings.TrimRight(string(b), "\n"), "\n")
	return firstWords([]byte(ls[len(ls)-1]), 1)
}

func isHex(s string) bool { return gitdir.ObjectID(s) }

func contains(l []string, s string) bool {
	for _, x := range l {
		if x == s {
			return true
		}
	}
	return false
}

// sizeAndHash reads a stamp's size and content hash ("file MODE SIZE
// HASH"); false for one stamped without content (past the budget).
func sizeAndHash(st string) (int64, string, bool) {
	f := strings.Fields(st)
	if len(f) != 4 || f[0] != "file" || len(f[3]) != 64 {
		return 0, "", false
	}
	n, err := strconv.ParseInt(f[2], 10, 64)
	return n, f[3], err == nil
}

func hashOf(b []byte) string {
	h := sha256.Sum256(b)
	return hex.EncodeToString(h[:])
}

// readBounded reads p without following a link (a fifo does not hang it),
// at most maxPointsRead bytes.
func readBounded(p string) ([]byte, error) {
	f, err := nofollow.OpenFile(p, os.O_RDONLY|nonblock, 0)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return io.ReadAll(io.LimitReader(f, maxPointsRead))
}
