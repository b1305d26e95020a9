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
// such a file is then used only while the person trusted its exact bytes
// (TrustFile), as in a place that is no repository: the mark stays, so a
// later change withdraws the approval. A .sentinel/ or state file that is
// a symbolic link is held the same way (StateLinked): what it names can be
// changed by a run that never touches the name.

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

// StateLinked says whether root's .sentinel/ or its .sentinel/<name> is a
// symbolic link (or cannot be told): the file's bytes then live where a
// run in a folder holding root could change them without touching a
// .sentinel/ name.
func StateLinked(root, name string) bool {
	for _, p := range []string{filepath.Join(root, ".sentinel"), StateFilePath(root, name)} {
		st, err := os.Lstat(p)
		if errors.Is(err, os.ErrNotExist) {
			return false
		}
		if err != nil || st.Mode()&os.ModeSymlink != 0 {
			return true
		}
	}
	return false
}
