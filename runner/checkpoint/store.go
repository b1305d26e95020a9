package checkpoint

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"sync"
	"time"

	"github.com/sentinelhq/sentinel/internal/atomicfile"
	"github.com/sentinelhq/sentinel/internal/userstate"
)

// Store is the checkpoints of one place, in the user's state dir:
// $XDG_STATE_HOME/sentinel/checkpoints/<place>/{blobs/,<id>/}. Nothing in
// it comes from the place but file contents, stored under their hash.
type Store struct {
	Dir   string // the place's directory in the state dir
	Place string // the place's absolute root
}

// Open is the store of the place at root (an absolute, resolved path).
func Open(root string) (*Store, error) {
	state, err := userstate.Dir()
	if err != nil {
		return nil, err
	}
	return OpenIn(filepath.Join(state, "checkpoints"), root)
}

// OpenIn is the store of the place at root under base (tests, benches).
func OpenIn(base, root string) (*Store, error) {
	if !filepath.IsAbs(root) {
		return nil, fmt.Errorf("checkpoint: %s is not an absolute path", root)
	}
	sum := sha256.Sum256([]byte(root))
	s := &Store{Dir: filepath.Join(base, hex.EncodeToString(sum[:8])), Place: root}
	if err := os.MkdirAll(filepath.Join(s.Dir, "blobs"), 0o700); err != nil {
		return nil, fmt.Errorf("checkpoint store: %w", err)
	}
	return s, nil
}

func (s *Store) blobPath(hash string) string {
	return filepath.Join(s.Dir, "blobs", hash[:2], hash[2:])
}

// has says whether the blob for hash is stored.
func (s *Store) has(hash string) bool {
	st, err := os.Lstat(s.blobPath(hash))
	return err == nil && st.Mode().IsRegular()
}

// put copies r into the store, returning its hash and length. The blob is
// written to a temporary file and renamed into place, so a blob's name
// always matches its whole content.
func (s *Store) put(r io.Reader) (string, int64, error) {
	tmp, err := os.CreateTemp(filepath.Join(s.Dir, "blobs"), ".put-*")
	if err != nil {
		return "", 0, err
	}
	defer os.Remove(tmp.Name())
	h := sha256.New()
	n, err := io.Copy(io.MultiWriter(tmp, h), r)
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return "", 0, err
	}
	hash := hex.EncodeToString(h.Sum(nil))
	if s.has(hash) {
		return hash, n, nil
	}
	if err := os.MkdirAll(filepath.Dir(s.blobPath(hash)), 0o700); err != nil {
		return "", 0, err
	}
	return hash, n, os.Rename(tmp.Name(), s.blobPath(hash))
}

// openBlob opens a stored blob; restoreFile checks its content against
// its name as it copies it.
func (s *Store) openBlob(hash string) (*os.File, error) {
	if !validHash(hash) {
		return nil, fmt.Errorf("checkpoint: %q is not a content hash", hash)
	}
	return os.Open(s.blobPath(hash))
}

var hashPattern = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[0-9a-f]{64}$`) })

func validHash(h string) bool { return hashPattern().MatchString(h) }

var idPattern = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[0-9A-Za-z][0-9A-Za-z._-]{0,79}$`) })

// ValidID says whether id may name a checkpoint record.
func ValidID(id string) bool { return idPattern().MatchString(id) && id != "blobs" }

// Record is one checkpointed action on the place: an in-place run or an
// undo, with the place before it and (once it ended) after it.
type Record struct {
	ID      string    `json:"id"`
	Kind    string    `json:"kind"` // "exec" or "undo"
	Place   string    `json:"place"`
	Task    string    `json:"task,omitempty"`
	Started time.Time `json:"started"`
	Ended   time.Time `json:"ended,omitempty"`
	// Undoes is the record an undo undid; UndoneBy the undo that undid
	// this one (empty while it stands).
	Undoes   string `json:"undoes,omitempty"`
	UndoneBy string `json:"undone_by,omitempty"`
	// Kept are the paths the last undo of this record left as the person
	// had changed them since the run ended (the record stays undoable: a
	// later undo, once they are resolved, or --force, finishes it); empty
	// once an undo put everything back.
	Kept []string `json:"kept,omitempty"`
	// NotCovered counts the before-manifest's entries undo cannot restore.
	NotCovered int  `json:"not_covered"`
	HasAfter   bool `json:"has_after"`
	// Points are the places a run checkpointed before single tool calls
	// (in order), each a manifest of this record: undo can go back to
	// the point before any one of them.
	Points []Point `json:"points,omitempty"`
}

// Point is the place as it was just before one tool call of a run.
type Point struct {
	N        int       `json:"n"`        // 1 for the run's first checkpointed call
	Manifest string    `json:"manifest"` // the manifest's name in the record (an unchanged place shares the last one)
	Call     string    `json:"call"`     // what the call was, one line
	Time     time.Time `json:"time"`
	// Index names the copy of the git index kept in the record as it was
	// before the call (an unchanged index shares the last copy); "" when
	// the place has no git index or none was kept.
	Index string `json:"index,omitempty"`
}

// Point is the record's point n, if it has one.
func (r *Record) Point(n int) (Point, bool) {
	for _, p := range r.Points {
		if p.N == n {
			return p, true
		}
	}
	return Point{}, false
}

func (s *Store) recordDir(id string) (string, error) {
	if !ValidID(id) {
		return "", fmt.Errorf("checkpoint: %q is not a checkpoint id", id)
	}
	return filepath.Join(s.Dir, id), nil
}

// SaveRecord writes r's record.
func (s *Store) SaveRecord(r *Record) error {
	dir, err := s.recordDir(r.ID)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return err
	}
	b, err := json.MarshalIndent(r, "", "  ")
	if err != nil {
		return err
	}
	return atomicfile.Write(filepath.Join(dir, "record.json"), b, 0o600)
}

// Record reads record id.
func (s *Store) Record(id string) (*Record, error) {
	dir, err := s.recordDir(id)
	if err != nil {
		return nil, err
	}
	b, err := os.ReadFile(filepath.Join(dir, "record.json"))
	if errors.Is(err, os.ErrNotExist) {
		return nil, fmt.Errorf("no checkpoint %s for %s (see: sentinel undo --list)", id, s.Place)
	}
	if err != nil {
		return nil, err
	}
	var r Record
	if err := json.Unmarshal(b, &r); err != nil || r.ID != id {
		return nil, fmt.Errorf("checkpoint %s: unreadable record", id)
	}
	return &r, nil
}

// SaveManifest writes record id's manifest named which ("before", "after").
func (s *Store) SaveManifest(id, which string, m *Manifest) error {
	dir, err := s.recordDir(id)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return err
	}
	b, err := encodeManifest(m)
	if err != nil {
		return err
	}
	return atomicfile.Write(filepath.Join(dir, which+".json"), b, 0o600)
}

// Manifest reads record id's manifest named which.
func (s *Store) Manifest(id, which string) (*Manifest, error) {
	dir, err := s.recordDir(id)
	if err != nil {
		return nil, err
	}
	b, err := os.ReadFile(filepath.Join(dir, which+".json"))
	if err != nil {
		return nil, err
	}
	m, err := decodeManifest(b)
	if err != nil {
		return nil, fmt.Errorf("checkpoint %s: unreadable %s manifest: %w", id, which, err)
	}
	return m, nil
}

// Records are the place's records, newest first.
func (s *Store) Records() ([]*Record, error) {
	des, err := os.ReadDir(s.Dir)
	if err != nil {
		return nil, err
	}
	var out []*Record
	for _, de := range des {
		if !de.IsDir() || !ValidID(de.Name()) {
			continue
		}
		if r, err := s.Record(de.Name()); err == nil {
			out = append(out, r)
		}
	}
	sort.Slice(out, func(i, j int) bool {
		if !out[i].Started.Equal(out[j].Started) {
			return out[i].Started.After(out[j].Started)
		}
		return out[i].ID > out[j].ID
	})
	return out, nil
}

// Latest is the newest manifest of the place (an after-manifest when the
// record has one), the stamps a new checkpoint reuses; nil if none.
func (s *Store) Latest() *Manifest {
	rs, err := s.Records()
	if err != nil {
		return nil
	}
	for _, r := range rs {
		which := "before"
		if r.HasAfter {
			which = "after"
		}
		if m, err := s.Manifest(r.ID, which); err == nil {
			return m
		}
	}
	return nil
}

// RecordDir is record id's directory, where a caller may keep more of the
// record's state (the git index of an in-place run); Prune removes it
// with the record.
func (s *Store) RecordDir(id string) (string, error) { return s.recordDir(id) }
