// Package userstate owns Sentinel's per-user state directory, the one place
// outside every project that a coder can never write: $XDG_STATE_HOME/sentinel
// (default ~/.local/state/sentinel), mode 0700. It holds the secret key that
// signs Sentinel's own records in a project (run records, pending applies,
// shadow git dirs), the person's approvals of project config files, and
// signed caches of answers that cost a process start (cache.go).
//
// It must not hold anything a project decides: only what the person or
// Sentinel itself wrote.
package userstate

import (
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/sentinelhq/sentinel/internal/atomicfile"
)

// Dir is the user's Sentinel state directory, created (0700) if missing.
func Dir() (string, error) {
	base := os.Getenv("XDG_STATE_HOME")
	if base == "" || !filepath.IsAbs(base) {
		home, err := os.UserHomeDir()
		if err != nil {
			return "", fmt.Errorf("find the user state directory (set XDG_STATE_HOME or HOME): %w", err)
		}
		base = filepath.Join(home, ".local", "state")
	}
	dir := filepath.Join(base, "sentinel")
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return "", fmt.Errorf("create the user state directory %s: %w", dir, err)
	}
	return dir, nil
}

// Path is a file in the state directory.
func Path(name string) (string, error) {
	dir, err := Dir()
	if err != nil {
		return "", err
	}
	return filepath.Join(dir, name), nil
}

const keyFile = "record.key"

// Key is the user's secret record key (32 random bytes), created on first
// use with mode 0600. Anything Sentinel must later prove it wrote is signed
// with it (see Sign and Verify).
func Key() ([]byte, error) {
	p, err := Path(keyFile)
	if err != nil {
		return nil, err
	}
	if b, err := os.ReadFile(p); err == nil && len(b) == 64 {
		k, derr := hex.DecodeString(string(b))
		if derr == nil {
			return k, nil
		}
	}
	k := make([]byte, 32)
	if _, err := rand.Read(k); err != nil {
		return nil, err
	}
	tmp, err := os.CreateTemp(filepath.Dir(p), ".key-*")
	if err != nil {
		return nil, err
	}
	defer os.Remove(tmp.Name())
	if _, err := tmp.WriteString(hex.EncodeToString(k)); err != nil {
		tmp.Close()
		return nil, err
	}
	if err := tmp.Close(); err != nil {
		return nil, err
	}
	// Link, not rename: two processes racing to create the key agree on one.
	if err := os.Link(tmp.Name(), p); err != nil {
		if errors.Is(err, os.ErrExist) {
			return Key()
		}
		return nil, err
	}
	return k, nil
}

// Sign is the hex HMAC-SHA256 of data under the user's key, with a purpose
// label so a signature for one kind of record never verifies another.
func Sign(purpose string, data []byte) (string, error) {
	k, err := Key()
	if err != nil {
		return "", err
	}
	m := hmac.New(sha256.New, k)
	m.Write([]byte(purpose))
	m.Write([]byte{0})
	m.Write(data)
	return hex.EncodeToString(m.Sum(nil)), nil
}

// Verify says whether sig is Sign(purpose, data). Any error is a no.
func Verify(purpose string, data []byte, sig string) bool {
	want, err := Sign(purpose, data)
	if err != nil || sig == "" {
		return false
	}
	return hmac.Equal([]byte(want), []byte(sig))
}

// WriteFile replaces the state file name with b atomically (a temporary
// file beside it, renamed over it), so a reader sees the old bytes or the
// new ones, never a torn write.
func WriteFile(name string, b []byte) error {
	p, err := Path(name)
	if err != nil {
		return err
	}
	return atomicfile.Write(p, b, 0o600)
}
