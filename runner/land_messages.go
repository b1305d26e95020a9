package runner

import (
	"context"
	"fmt"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/sentinelhq/sentinel/internal/journal"
)

// KindCoderCommits says how the coder's own commits will land: one by one,
// or as one commit and why (CoderCommitsNote).
const KindCoderCommits journal.Kind = "coder-commits"

// CoderCommitsNote is KindCoderCommits's payload.
type CoderCommitsNote struct {
	Commits []CoderCommit `json:"commits,omitempty"`
	Squash  string        `json:"squash,omitempty"` // why they land as one commit
}

// maxSubject is the longest task line a landing commit takes whole as its
// subject; a longer one is cut at a word and given whole in the body.
const maxSubject = 100

// coderCommits reads the coder's own commits (none with --squash or in
// place), keeps them for a later review, and for a branch landing journals
// how they will land.
func (r *endStage) coderCommits(ctx context.Context, change Change) *CoderCommits {
	if r.opts.Landing.Squash || change.Empty() || r.ws == nil {
		return nil
	}
	cctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Minute)
	defer cancel()
	list, why, err := r.ws.Commits(cctx)
	if err != nil {
		why = err.Error()
	}
	if len(list) > 0 && why == "" {
		// Kept for `sentinel review`, which may land this run later.
		if sha, err := saveCoderCommits(r.dir, list); err == nil {
			r.meta.CoderCommitsSHA256 = sha
		}
	}
	if r.opts.Landing.Apply != ApplyBranch {
		return nil
	}
	switch {
	case why != "":
		r.emit(journal.System, KindCoderCommits, "the coder's commits land as one commit: "+why, CoderCommitsNote{Squash: why})
		return nil
	case len(list) == 0:
		return nil
	}
	r.emit(journal.System, KindCoderCommits, fmt.Sprintf("the coder made %d commit(s); they land as they were, in order", len(list)), CoderCommitsNote{Commits: list})
	return &CoderCommits{List: list}
}

// landingMessages is the message of a live run's single landing commit,
// and fills in ch.Coder's trailers and the message for what the coder left
// uncommitted. --squash keeps the one "sentinel: <task>" commit.
func (r *endStage) landingMessages(ch *Change) string {
	coder := r.adapter.Name()
	if r.opts.Landing.Squash {
		return runCommitMessage(r.opts.Task, coder, r.id, r.dir, ch.Files, r.meta.Checks)
	}
	evs, _ := readRecord(r.dir)
	d := CountDecisions(evs)
	last := fmt.Sprintf("Sentinel-Run: %s\nSentinel-Coder: %s\nSentinel-Verified: %s\nSentinel-Approvals: %d allowed, %d denied\nCo-authored-by: %s\n",
		r.id, coder, verifiedTrailer(r.meta.Checks), d.Allowed, d.Denied, coAuthor(coder))
	subject, body := taskSubject(r.opts.Task)
	if ch.Coder != nil {
		ch.Coder.Trailers = fmt.Sprintf("Sentinel-Run: %s\nSentinel-Coder: %s\nCo-authored-by: %s\n", r.id, coder, coAuthor(coder))
		ch.Coder.LastTrailers = last
		ch.Coder.Rest = taskMessage(subject, body, fmt.Sprintf("What coder %s left uncommitted after its %d commit(s).", coder, len(ch.Coder.List)), last)
	}
	return taskMessage(subject, body, fmt.Sprintf("%d file(s) changed by coder %s.", len(ch.Files), coder), last)
}

// taskMessage is subject, the task's body, a line of Sentinel's and the
// trailers, each part after a blank line.
func taskMessage(subject, body, note, trailers string) string {
	parts := []string{subject}
	if body != "" {
		parts = append(parts, body)
	}
	return strings.Join(append(parts, note, trailers), "\n\n")
}

// verifiedTrailer says which checks passed on the landed tree.
func verifiedTrailer(checks []CheckResult) string {
	if len(checks) == 0 {
		return "none configured"
	}
	var parts []string
	for _, c := range checks {
		parts = append(parts, fmt.Sprintf("%s (exit %d)", c.Command, c.ExitCode))
	}
	return strings.Join(parts, "; ")
}

// taskSubject splits a task into a commit's subject (its first line, whole
// when it is at most maxSubject characters, else cut at a word with the
// whole line starting the body) and body (the rest of the task).
func taskSubject(task string) (subject, body string) {
	task = strings.Trim(strings.ReplaceAll(task, "\r\n", "\n"), " \t\n")
	first, rest, _ := strings.Cut(task, "\n")
	first = strings.TrimSpace(first)
	rest = strings.Trim(rest, "\n")
	if first == "" {
		return "coder's work", rest
	}
	if utf8.RuneCountInString(first) <= maxSubject {
		return first, rest
	}
	cut := string([]rune(first)[:maxSubject-1])
	if i := strings.LastIndexByte(cut, ' '); i > maxSubject/2 {
		cut = cut[:i]
	}
	body = first
	if rest != "" {
		body += "\n\n" + rest
	}
	return strings.TrimRight(cut, " ,;:") + "…", body
}
