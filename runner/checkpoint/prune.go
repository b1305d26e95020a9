package checkpoint

import (
	"os"
	"path/filepath"
	"strings"
	"time"
)

// DefaultKeep is how many records of a place Prune keeps.
const DefaultKeep = 20

// blobGrace: a blob younger than this is never pruned, whatever refers to
// it: a checkpoint being taken right now has stored it but not yet saved
// the manifest that names it.
const blobGrace = time.Hour

// Prune drops the place's records past the newest keep, then every blob
// no remaining manifest names. The caller holds the store's lock.
func (s *Store) Prune(keep int) error {
	recs, err := s.Records()
	if err != nil {
		return err
	}
	for i, r := range recs {
		if i >= keep {
			if dir, err := s.recordDir(r.ID); err == nil {
				_ = os.RemoveAll(dir)
			}
		}
	}
	used, anchors := map[string]bool{}, map[string]bool{}
	des, err := os.ReadDir(s.Dir)
	if err != nil {
		return err
	}
	for _, de := range des {
		if !de.IsDir() || !ValidID(de.Name()) {
			continue
		}
		// Every manifest of the record: before, after and each point
		// before a single tool call.
		files, err := os.ReadDir(filepath.Join(s.Dir, de.Name()))
		if err != nil {
			return err
		}
		for _, f := range files {
			which, ok := strings.CutSuffix(f.Name(), ".json")
			if !ok || which == "record" || !f.Type().IsRegular() {
				continue
			}
			m, err := s.Manifest(de.Name(), which)
			if os.IsNotExist(err) {
				continue
			}
			if err != nil {
				return err // an unreadable manifest: keep every blob rather than guess
			}
			for _, e := range m.Entries {
				if e.Hash != "" {
					used[e.Hash] = true
				}
				if e.Out > 0 && e.Hash != "" {
					anchors[filepath.Base(s.anchorPath(&e))] = true
				}
			}
		}
	}
	s.pruneAnchors(anchors)
	old := time.Now().Add(-blobGrace)
	return filepath.WalkDir(filepath.Join(s.Dir, "blobs"), func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		hash := filepath.Base(filepath.Dir(p)) + d.Name()
		if used[hash] {
			return nil
		}
		if info, err := d.Info(); err == nil && info.ModTime().Before(old) {
			_ = os.Remove(p)
		}
		return nil
	})
}
