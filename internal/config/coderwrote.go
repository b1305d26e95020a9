package config

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"os"
	"path/filepath"
	"time"

	"github.com/sentinelhq/sentinel/internal/userstate"
)

// In a git repository a .sentinel/policy.toml or templates.toml is taken
// for the person's without a trust step: a committed one is refused, and a
// run in that repository cannot write its own .sentinel/. But a run started
// in a folder that holds the repository (sentinel exec in ~/work, a shim
// there) can write repoA/.sentinel/policy.toml, and the next run in repoA
// would follow its rules. So an in-place run that ends with such a file of
// any place under it changed records that a coder wrote it (MarkCoderWrote);
// such a file is then used only once the person trusted its exact bytes
// (TrustFile, which clears the mark), as in a place that is no repository.

const coderWroteDirName = "coder-written"

func coderWrotePath(root, name string) (string, string, error) {
	dir, err := userstate.Path(coderWroteDirName)
	if err != nil {
		return "", "", err
	}
	key := fileTrustKey(root, name)
	h := sha256.Sum256([]byte(key))
	return filepath.Join(dir, hex.EncodeToString(h[:])+".json"), key, nil
}

// MarkCoderWrote records that a coder wrote root's .sentinel/<name>, so
// that it is no longer taken for the person's without trust (CoderWrote).
func MarkCoderWrote(root, name string) error {
	p, key, err := coderWrotePath(root, name)
	if err != nil {
		return err
	}
	return writeTrust(p, trustRecord{Config: key, TrustedAt: time.Now().UTC()})
}

// CoderWrote says whether a coder wrote root's .sentinel/<name> since the
// person last trusted it. A record that cannot be read is a yes: the
// answer decides whether a file is used without asking.
func CoderWrote(root, name string) bool {
	p, _, err := coderWrotePath(root, name)
	if err != nil {
		return false // no state dir: nothing was ever recorded there either
	}
	_, err = os.Stat(p)
	return !errors.Is(err, os.ErrNotExist)
}

func clearCoderWrote(root, name string) error {
	p, _, err := coderWrotePath(root, name)
	if err != nil {
		return err
	}
	if err := os.Remove(p); err != nil && !errors.Is(err, os.ErrNotExist) {
		return err
	}
	return nil
}
