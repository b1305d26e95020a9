package supervisor

import (
	"bytes"
	"fmt"
	"path"
	"strings"

	"github.com/sentinelhq/sentinel/internal/textsafe"
	"github.com/sentinelhq/sentinel/policy"
)

// MaxReviewDiff bounds how much of the change goes into the completion
// review's prompt (bytes of diff text).
const MaxReviewDiff = 24000

// fileDiff is one file's part of a git patch.
type fileDiff struct {
	name   string
	text   string // header and hunks, hidden characters spelled out
	binary bool
	secret bool // a file that usually holds secrets: its content left out
}

// ReviewDiff is the change as the completion review reads it: the patch's
// text, each file's part in order, with binary payloads left out and, when
// the whole does not fit in limit bytes, every file's part cut to a fair
// share — and what was cut said plainly, so the reviewer never mistakes a
// cut diff for the whole change. The patch is the coder's work: hidden
// characters are spelled out (textsafe), and the content of a file that
// usually holds secrets (policy.SecretName: .env, keys, credentials) is
// left out, so a secret the coder wrote down never reaches the model.
func ReviewDiff(patch []byte, limit int) string {
	if limit <= 0 {
		limit = MaxReviewDiff
	}
	files := splitPatch(patch)
	if len(files) == 0 {
		return ""
	}
	total := 0
	for _, f := range files {
		total += len(f.text)
	}
	var b strings.Builder
	var cut []string
	if total <= limit {
		for _, f := range files {
			b.WriteString(f.text)
		}
	} else {
		// Small files whole, the rest share what is left equally.
		share := fairShare(files, limit)
		for _, f := range files {
			if len(f.text) <= share {
				b.WriteString(f.text)
				continue
			}
			head := clipLines(f.text, share)
			b.WriteString(head)
			cut = append(cut, f.name)
			fmt.Fprintf(&b, "[… Sentinel cut the rest of this file's diff: %d of %d lines shown]\n",
				strings.Count(head, "\n"), strings.Count(f.text, "\n"))
		}
	}
	for _, f := range files {
		switch {
		case f.secret:
			cut = append(cut, f.name+" (usually holds secrets)")
		case f.binary:
			cut = append(cut, f.name+" (binary)")
		}
	}
	if len(cut) > 0 {
		fmt.Fprintf(&b, "\nNOTE: this diff is not the whole change. Left out or cut: %s. Judge only what is shown; ask for what you could not see.\n",
			strings.Join(cut, ", "))
	}
	return b.String()
}

// fairShare is the byte budget per large file: files under an equal share
// take what they need, and what they leave is split among the rest.
func fairShare(files []fileDiff, limit int) int {
	sizes := make([]int, len(files))
	for i, f := range files {
		sizes[i] = len(f.text)
	}
	left, n := limit, len(sizes)
	for n > 0 {
		share := left / n
		changed := false
		for i, s := range sizes {
			if s >= 0 && s <= share {
				left -= s
				n--
				sizes[i] = -1
				changed = true
			}
		}
		if !changed {
			return max(share, 200)
		}
	}
	return max(left, 200)
}

// clipLines is the longest run of whole lines of s that fits in n bytes
// (at least the first line, clipped).
func clipLines(s string, n int) string {
	if len(s) <= n {
		return s
	}
	i := strings.LastIndexByte(s[:n], '\n')
	if i < 0 {
		return clip(s, n) + "\n"
	}
	return s[:i+1]
}

// splitPatch cuts a git patch at its "diff --git" lines. A binary file's
// payload (GIT binary patch) is replaced by a one-line note.
func splitPatch(patch []byte) []fileDiff {
	var out []fileDiff
	var cur strings.Builder
	flush := func() {
		if len(out) > 0 {
			out[len(out)-1].text = textsafe.Block(cur.String())
		}
		cur.Reset()
	}
	for _, part := range bytes.SplitAfter(patch, []byte("\n")) {
		line := string(part)
		if strings.HasPrefix(line, "diff --git ") || len(out) == 0 {
			flush()
			name := diffName(line)
			out = append(out, fileDiff{name: name, secret: policy.SecretName(path.Base(name))})
			if out[len(out)-1].secret {
				cur.WriteString(line + "(content left out: a file that usually holds secrets never goes to a model)\n")
			}
		}
		f := &out[len(out)-1]
		switch {
		case f.binary, f.secret:
			continue
		case strings.HasPrefix(line, "GIT binary patch"), strings.HasPrefix(line, "Binary files "):
			f.binary = true
			cur.WriteString("(binary content left out)\n")
			continue
		}
		cur.WriteString(line)
	}
	flush()
	if len(out) == 1 && strings.TrimSpace(out[0].text) == "" {
		return nil
	}
	return out
}

// diffName is the b/ path of a "diff --git a/x b/x" line.
func diffName(line string) string {
	line = strings.TrimSpace(strings.TrimPrefix(line, "diff --git "))
	if i := strings.LastIndex(line, " b/"); i >= 0 {
		return textsafe.Line(line[i+3:])
	}
	return textsafe.Line(clip(line, 120))
}
