package checkpoint

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
)

// ReadBlob is the content e recorded (a file whose Hash is set), up to
// max bytes, checked against its name: for what reads an old version of
// a small file to tell what changed in it (the report's go.mod toolchain
// line). A file over max is an error.
func (s *Store) ReadBlob(e *Entry, max int64) ([]byte, error) {
	if e == nil || e.Kind != KindFile || e.Hash == "" {
		return nil, fmt.Errorf("checkpoint: no stored content")
	}
	f, err := s.openBlob(e.Hash)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, max+1))
	switch {
	case err != nil:
		return nil, err
	case int64(len(b)) > max:
		return nil, fmt.Errorf("checkpoint: stored content over %d bytes", max)
	}
	if sum := sha256.Sum256(b); hex.EncodeToString(sum[:]) != e.Hash {
		return nil, fmt.Errorf("checkpoint: stored content does not match its name %s", e.Hash)
	}
	return b, nil
}
