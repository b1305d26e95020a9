package config

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/sentinelhq/sentinel/internal/userstate"
)

// The person's approvals of project config files live in the user's state
// directory, one small JSON record per project (so two projects trusted at
// once never race on one file): trusted-configs/<sha256 of the config's
// path>.json holding the path and the SHA-256 of the approved bytes. Each
// record is written whole (temp file, 0600, rename).
const trustDirName = "trusted-configs"

type trustRecord struct {
	Config    string    `json:"config"` // the config file's absolute path, project root symlinks resolved
	SHA256    string    `json:"sha256"` // of the approved bytes
	TrustedAt time.Time `json:"trusted_at"`
}

// trustKey is the path a project's approval is recorded under: its config
// file's path with the root's symlinks resolved, so the same project
// reached two ways has one approval.
func trustKey(root string) string {
	abs, err := filepath.Abs(root)
	if err != nil {
		abs = root
	}
	if r, err := filepath.EvalSymlinks(abs); err == nil {
		abs = r
	}
	return ProjectPath(abs)
}

func trustRecordPath(root string) (string, string, error) {
	dir, err := userstate.Path(trustDirName)
	if err != nil {
		return "", "", err
	}
	key := trustKey(root)
	h := sha256.Sum256([]byte(key))
	return filepath.Join(dir, hex.EncodeToString(h[:])+".json"), key, nil
}

// isTrusted says whether the person approved the file with this hash for
// the project at root. Any error (no state dir, an unreadable or garbled
// record) is a no.
func isTrusted(root, sum string) bool {
	rec, err := readTrust(root)
	return err == nil && rec != nil && rec.SHA256 == sum
}

func readTrust(root string) (*trustRecord, error) {
	p, key, err := trustRecordPath(root)
	if err != nil {
		return nil, err
	}
	b, err := os.ReadFile(p)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var rec trustRecord
	if err := json.Unmarshal(b, &rec); err != nil {
		return nil, fmt.Errorf("trust record %s is not JSON (%v): remove it and run sentinel config trust again", p, err)
	}
	if rec.Config != key || len(rec.SHA256) != 64 {
		return nil, fmt.Errorf("trust record %s is not for %s: remove it and run sentinel config trust again", p, key)
	}
	return &rec, nil
}

// Trust records that the person approves pf — exactly the bytes ReadProject
// hashed — for its project. Show the person pf.Widening before calling it.
func Trust(pf ProjectFile) error {
	if !pf.Present || len(pf.SHA256) != 64 {
		return fmt.Errorf("no project config at %s to trust", pf.Path)
	}
	p, key, err := trustRecordPath(pf.Root)
	if err != nil {
		return err
	}
	return writeTrust(p, trustRecord{Config: key, SHA256: pf.SHA256, TrustedAt: time.Now().UTC()})
}

// writeTrust writes one approval record whole (temp file, 0600, rename).
func writeTrust(p string, rec trustRecord) error {
	if err := os.MkdirAll(filepath.Dir(p), 0o700); err != nil {
		return fmt.Errorf("record the approval: %w", err)
	}
	b, err := json.MarshalIndent(rec, "", "  ")
	if err != nil {
		return err
	}
	tmp, err := os.CreateTemp(filepath.Dir(p), ".trust-*")
	if err != nil {
		return fmt.Errorf("record the approval: %w", err)
	}
	defer os.Remove(tmp.Name())
	if err := tmp.Chmod(0o600); err != nil {
		tmp.Close()
		return err
	}
	if _, err := tmp.Write(append(b, '\n')); err != nil {
		tmp.Close()
		return fmt.Errorf("record the approval: %w", err)
	}
	if err := tmp.Sync(); err != nil {
		tmp.Close()
		return fmt.Errorf("record the approval: %w", err)
	}
	if err := tmp.Close(); err != nil {
		return fmt.Errorf("record the approval: %w", err)
	}
	if err := os.Rename(tmp.Name(), p); err != nil {
		return fmt.Errorf("record the approval: %w", err)
	}
	return nil
}

// Untrust removes the approval of root's project config, whatever its
// content; removed says whether there was one.
func Untrust(root string) (removed bool, err error) {
	p, _, err := trustRecordPath(root)
	if err != nil {
		return false, err
	}
	err = os.Remove(p)
	if errors.Is(err, os.ErrNotExist) {
		return false, nil
	}
	if err != nil {
		return false, fmt.Errorf("remove the approval %s: %w", p, err)
	}
	return true, nil
}

// TrustedHash is the SHA-256 the person approved for root's project config
// ("" when none), for status displays.
func TrustedHash(root string) (string, error) {
	rec, err := readTrust(root)
	if err != nil || rec == nil {
		return "", err
	}
	return rec.SHA256, nil
}

// StateFiles are the files of a project's .sentinel/ that change what a
// run may do: its config, its policy rules and its remembered templates.
// In a place that is not a git repository (an unpacked archive) nothing
// tells the person's own from what the place shipped, so each is used
// only once the person trusted its exact bytes (TrustFile).
var StateFiles = []string{"config.toml", "policy.toml", "templates.toml"}

// StateFilePath is root's .sentinel/<name>.
func StateFilePath(root, name string) string { return filepath.Join(root, ".sentinel", name) }

// fileTrustKey is the key of the approval of root's .sentinel/<name>: its
// path with the root's symlinks resolved (config.toml's is trustKey).
func fileTrustKey(root, name string) string {
	return filepath.Join(filepath.Dir(trustKey(root)), name)
}

func fileTrustPath(root, name string) (string, string, error) {
	dir, err := userstate.Path(trustDirName)
	if err != nil {
		return "", "", err
	}
	key := fileTrustKey(root, name)
	h := sha256.Sum256([]byte(key))
	return filepath.Join(dir, hex.EncodeToString(h[:])+".json"), key, nil
}

// HashFile is the hex SHA-256 of the file at path; present is false (and
// err nil) when there is no file.
func HashFile(path string) (sum string, present bool, err error) {
	b, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		return "", false, nil
	}
	if err != nil {
		return "", false, err
	}
	h := sha256.Sum256(b)
	return hex.EncodeToString(h[:]), true, nil
}

// FileTrusted says whether the person approved root's .sentinel/<name>
// with exactly the hash sum. Any error is a no.
func FileTrusted(root, name, sum string) bool {
	p, key, err := fileTrustPath(root, name)
	if err != nil {
		return false
	}
	b, err := os.ReadFile(p)
	if err != nil {
		return false
	}
	var rec trustRecord
	return json.Unmarshal(b, &rec) == nil && rec.Config == key && rec.SHA256 == sum && len(sum) == 64
}

// TrustFile records that the person (or Sentinel, for the templates it
// writes itself into a trusted or new file) approves root's
// .sentinel/<name> with the hash sum.
func TrustFile(root, name, sum string) error {
	if name == "config.toml" {
		return Trust(ProjectFile{Root: root, Path: ProjectPath(root), Present: true, SHA256: sum})
	}
	p, key, err := fileTrustPath(root, name)
	if err != nil {
		return err
	}
	return writeTrust(p, trustRecord{Config: key, SHA256: sum, TrustedAt: time.Now().UTC()})
}

// UntrustFile removes the approval of root's .sentinel/<name>.
func UntrustFile(root, name string) (bool, error) {
	if name == "config.toml" {
		return Untrust(root)
	}
	p, _, err := fileTrustPath(root, name)
	if err != nil {
		return false, err
	}
	err = os.Remove(p)
	if errors.Is(err, os.ErrNotExist) {
		return false, nil
	}
	return err == nil, err
}
