package runner

import (
	"encoding/json"
	"errors"
	"fmt"

	"github.com/sentinelhq/sentinel/internal/journal"
)

// A run that does not land when it ends (--apply none, a failed check, a
// review left for later) keeps the coder's commits beside its patch, so
// `sentinel review` lands them as a live run would: each commit as it was,
// then the rest. The file's hash is in the run's signed record; a file that
// does not match it is not used (the work then lands as one commit).

// coderCommitsFile holds the coder's commits in the run directory.
const coderCommitsFile = "coder-commits.json"

// savedCommit is one of the coder's commits as the run directory keeps it.
type savedCommit struct {
	ID      string   `json:"id"`
	Message string   `json:"message"`
	Files   []string `json:"files"`
	Patch   []byte   `json:"patch"`
}

// saveCoderCommits writes list to dir and returns the hash of what it wrote.
func saveCoderCommits(dir string, list []CoderCommit) (string, error) {
	saved := make([]savedCommit, len(list))
	for i, c := range list {
		saved[i] = savedCommit{ID: c.ID, Message: c.Message, Files: c.Files, Patch: c.Patch}
	}
	b, err := json.Marshal(saved)
	if err != nil {
		return "", err
	}
	if err := writeFileIn(dir, coderCommitsFile, b, 0o600); err != nil {
		return "", fmt.Errorf("keep the coder's commits: %w", err)
	}
	return sha256Hex(b), nil
}

// savedCoderCommits reads back the commits whose hash the signed record
// holds: none when the run kept none, an error when the file is not the one
// Sentinel wrote.
func savedCoderCommits(dir, sha string) ([]CoderCommit, error) {
	if sha == "" {
		return nil, nil
	}
	b, err := readFileIn(dir, coderCommitsFile)
	if err != nil {
		return nil, fmt.Errorf("the coder's commits: %w", err)
	}
	if sha256Hex(b) != sha {
		return nil, errors.New("the coder's commits were changed since Sentinel kept them")
	}
	var saved []savedCommit
	if err := json.Unmarshal(b, &saved); err != nil {
		return nil, fmt.Errorf("the coder's commits: %w", err)
	}
	list := make([]CoderCommit, len(saved))
	for i, c := range saved {
		list[i] = CoderCommit{ID: c.ID, Message: c.Message, Files: c.Files, Patch: c.Patch}
	}
	return list, nil
}

// reviewCoderMessages is landingMessages for the coder's commits of a run
// landed by `sentinel review`: it fills in ch.Coder's trailers and the
// message for what the coder left uncommitted.
func reviewCoderMessages(m *Meta, ch *Change) {
	allowed, denied := 0, 0
	if m.Decisions != nil {
		allowed, denied = m.Decisions.Allowed, m.Decisions.Denied
	}
	last := fmt.Sprintf("Sentinel-Run: %s\nSentinel-Coder: %s\nSentinel-Verified: %s\nSentinel-Approvals: %d allowed, %d denied\nCo-authored-by: %s\n",
		m.ID, m.Coder, verifiedTrailer(m.Checks), allowed, denied, coAuthor(m.Coder))
	subject, body := taskSubject(m.Task)
	ch.Coder.Trailers = fmt.Sprintf("Sentinel-Run: %s\nSentinel-Coder: %s\nCo-authored-by: %s\n", m.ID, m.Coder, coAuthor(m.Coder))
	ch.Coder.LastTrailers = last
	ch.Coder.Rest = taskMessage(subject, body, fmt.Sprintf("What coder %s left uncommitted after its %d commit(s), landed after review.", m.Coder, len(ch.Coder.List)), last)
}

// reviewCoderCommits are the coder's commits a whole run's change lands
// with after review (nil: one commit), journaled as a live run journals
// them. A kept file that does not match the signed record is not used.
func (f *Finished) reviewCoderCommits(ch *Change) {
	list, err := savedCoderCommits(f.Dir, f.Meta.CoderCommitsSHA256)
	if err != nil {
		why := err.Error()
		f.emit(journal.System, KindCoderCommits, "the coder's commits land as one commit: "+why, CoderCommitsNote{Squash: why})
		return
	}
	if len(list) == 0 {
		return
	}
	ch.Coder = &CoderCommits{List: list}
	reviewCoderMessages(f.Meta, ch)
	f.emit(journal.System, KindCoderCommits, fmt.Sprintf("the coder made %d commit(s); they land as they were, in order", len(list)), CoderCommitsNote{Commits: list})
}
