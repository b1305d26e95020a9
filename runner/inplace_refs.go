package runner

import (
	"bufio"
	"context"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/sentinelhq/sentinel/internal/textsafe"
)

// In place the coder may write the project's refs (committing on a branch
// needs it), so it can also reset a branch, delete one, retag, detach HEAD
// or drop a stash. None of that is a file of the work tree, so the change
// report would not show it: the refs are recorded at the start and
// compared at the end, every move is listed, and a ref the person had that
// moved or went is flagged with the command that puts it back.

// refState is one git dir's refs at a moment: every ref (loose over
// packed), HEAD (its symbolic target or a detached id) and how many stash
// entries the stash's log holds.
type refState struct {
	Head  string
	Refs  map[string]string // name → object id, or "ref: target" for a symbolic ref
	Stash int
}

// maxRefs bounds how many refs are recorded (a mirror of a large host has
// hundreds of thousands); past it the comparison says it stopped.
const maxRefs = 200000

// readRefState reads gitDir's HEAD and the refs of common (and of gitDir,
// for a linked worktree's own refs) straight from the files: no git runs,
// a ref with no reflog counts, and a ref whose object is missing is still
// seen. A reftable repository is asked of git (hardened).
func readRefState(ctx context.Context, gitDir, common string) (*refState, error) {
	s := &refState{Refs: map[string]string{}}
	head, err := os.ReadFile(filepath.Join(gitDir, "HEAD"))
	if err != nil {
		return nil, err
	}
	s.Head = strings.TrimSpace(string(head))
	if _, err := os.Stat(filepath.Join(common, "reftable")); err == nil {
		return s, s.readWithGit(ctx, gitDir)
	}
	if err := s.readPacked(filepath.Join(common, "packed-refs")); err != nil {
		return nil, err
	}
	dirs := []string{common}
	if filepath.Clean(gitDir) != filepath.Clean(common) {
		dirs = append(dirs, gitDir)
	}
	for _, d := range dirs {
		if err := s.readLoose(d); err != nil {
			return nil, err
		}
	}
	if b, err := os.ReadFile(filepath.Join(common, "logs", "refs", "stash")); err == nil {
		s.Stash = strings.Count(string(b), "\n")
	}
	return s, nil
}

func (s *refState) readPacked(path string) error {
	f, err := os.Open(path)
	if os.IsNotExist(err) {
		return nil
	}
	if err != nil {
		return err
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 64*1024), 64*1024)
	for sc.Scan() {
		line := sc.Text()
		if line == "" || line[0] == '#' || line[0] == '^' {
			continue
		}
		id, name, ok := strings.Cut(line, " ")
		if ok && len(s.Refs) < maxRefs {
			s.Refs[name] = id
		}
	}
	return sc.Err()
}

func (s *refState) readLoose(gitDir string) error {
	root := filepath.Join(gitDir, "refs")
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			if os.IsNotExist(err) && path == root {
				return filepath.SkipDir
			}
			return err
		}
		if !d.Type().IsRegular() || strings.HasSuffix(path, ".lock") {
			return nil
		}
		if len(s.Refs) >= maxRefs {
			return filepath.SkipAll
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(gitDir, path)
		s.Refs[filepath.ToSlash(rel)] = strings.TrimSpace(string(b))
		return nil
	})
	if os.IsNotExist(err) {
		return nil
	}
	return err
}

func (s *refState) readWithGit(ctx context.Context, gitDir string) error {
	out, err := gitCmd{dir: gitDir, env: []string{"GIT_DIR=" + gitDir}}.run(ctx, "for-each-ref", "--format=%(objectname) %(refname)")
	if err != nil {
		return err
	}
	for _, line := range strings.Split(out, "\n") {
		if id, name, ok := strings.Cut(line, " "); ok && len(s.Refs) < maxRefs {
			s.Refs[name] = id
		}
	}
	if n, err := (gitCmd{dir: gitDir, env: []string{"GIT_DIR=" + gitDir}}).run(ctx, "rev-list", "--walk-reflogs", "--count", "refs/stash"); err == nil {
		fmt.Sscan(strings.TrimSpace(n), &s.Stash)
	}
	return nil
}

// RefMove is one ref that differs between the start and the end.
type RefMove struct {
	Ref    string `json:"ref"`
	Before string `json:"before,omitempty"` // "" when it is new
	After  string `json:"after,omitempty"`  // "" when it was deleted
	// Yours: the ref was the person's at the start and the coder moved or
	// deleted it (a new ref is never flagged).
	Yours bool `json:"yours,omitempty"`
}

// String is one line of the change report.
func (m RefMove) String() string {
	short := func(id string) string {
		if len(id) > 12 && !strings.HasPrefix(id, "ref: ") {
			return id[:12]
		}
		return id
	}
	var s string
	switch {
	case m.Ref == "stash":
		s = fmt.Sprintf("stash: %s entries, now %s", m.Before, m.After)
	case m.Before == "":
		s = fmt.Sprintf("%s: new, at %s", m.Ref, short(m.After))
	case m.After == "":
		s = fmt.Sprintf("%s: deleted (was %s)", m.Ref, short(m.Before))
	default:
		s = fmt.Sprintf("%s: moved %s -> %s", m.Ref, short(m.Before), short(m.After))
	}
	if m.Yours {
		s += " [yours: " + m.restore() + "]"
	}
	if strings.HasPrefix(m.Ref, "refs/replace/") && m.After != "" {
		s += " [runs later: git uses another object's content for " + strings.TrimPrefix(m.Ref, "refs/replace/") + " on every command, a checkout included; git replace -d " + strings.TrimPrefix(m.Ref, "refs/replace/") + "]"
	}
	// Ref names and contents are the coder's files: one safe line each.
	return textsafe.Line(s)
}

// restore is how the person puts the ref back.
func (m RefMove) restore() string {
	switch {
	case m.Ref == "stash":
		return "dropped stash entries stay in git's objects until gc; git fsck --unreachable | grep commit finds them"
	case m.Ref == "HEAD" && strings.HasPrefix(m.Before, "ref: "):
		return "git checkout " + strings.TrimPrefix(strings.TrimPrefix(m.Before, "ref: "), "refs/heads/")
	case m.Ref == "HEAD":
		return "git checkout --detach " + m.Before
	case strings.HasPrefix(m.Before, "ref: "):
		return "git symbolic-ref " + m.Ref + " " + strings.TrimPrefix(m.Before, "ref: ")
	}
	return "git update-ref " + m.Ref + " " + m.Before
}

// refMoves compares two states: every changed ref, HEAD and the stash.
func refMoves(before, after *refState) []RefMove {
	var out []RefMove
	if before.Head != after.Head {
		out = append(out, RefMove{Ref: "HEAD", Before: before.Head, After: after.Head, Yours: true})
	}
	var names []string
	for n := range before.Refs {
		names = append(names, n)
	}
	for n := range after.Refs {
		if _, ok := before.Refs[n]; !ok {
			names = append(names, n)
		}
	}
	slices.Sort(names)
	for _, n := range names {
		b, a := before.Refs[n], after.Refs[n]
		if b == a || n == "refs/stash" && before.Stash != after.Stash {
			continue
		}
		out = append(out, RefMove{Ref: n, Before: b, After: a, Yours: b != ""})
	}
	if before.Stash != after.Stash {
		out = append(out, RefMove{Ref: "stash", Before: fmt.Sprint(before.Stash), After: fmt.Sprint(after.Stash), Yours: after.Stash < before.Stash})
	}
	return out
}

// refMoves is what the coder did to the project's refs, or a line saying
// why that cannot be told; nil when nothing moved or the place has no git.
func (g *gitGuard) refMoves(ctx context.Context) ([]RefMove, error) {
	if g == nil || g.p.GitDir == "" {
		return nil, nil
	}
	if g.refs == nil {
		return nil, fmt.Errorf("the refs were not recorded at the start: %v", g.refsErr)
	}
	after, err := readRefState(ctx, g.p.GitDir, g.common)
	if err != nil {
		return nil, err
	}
	return refMoves(g.refs, after), nil
}

// refMovesText is the change report's lines for moves ("" for none).
func refMovesText(moves []RefMove) string {
	if len(moves) == 0 {
		return ""
	}
	var b strings.Builder
	fmt.Fprintf(&b, "\nin place: %d ref(s) changed:", len(moves))
	for _, m := range moves {
		b.WriteString("\n  " + m.String())
	}
	return b.String()
}
