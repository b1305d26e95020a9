package runner

// A run's shadow git dir (Sentinel's own git dir for reading the coder's
// workspace, see workspace.go) lives in the user's state directory, not in
// the project: $XDG_STATE_HOME/sentinel/shadow/<project>/<run-id>.git.
//
// Why there and not signed in the run directory: git reads far more of a
// git dir than one could sign and re-check — config and its includes,
// info/attributes, objects/info/alternates, commondir, hooks, the index,
// which git itself rewrites during the run — and a planted filter or
// fsmonitor in any of them runs a command on the host. Nothing under the
// project can be trusted to be Sentinel's, and nothing a coder can write
// is under the state directory, so the crash sweep (recoverDead) finds the
// shadow by recomputing this path from the project root and a validated
// run id, and never uses a git dir found in the project.

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/sentinelhq/sentinel/internal/userstate"
)

// shadowDir is run id's shadow git dir for project p (its parent is
// created, 0700).
func shadowDir(p *Project, id string) (string, error) {
	if !ValidRunID(id) {
		return "", fmt.Errorf("%q is not a run id", id)
	}
	state, err := userstate.Dir()
	if err != nil {
		return "", err
	}
	sum := sha256.Sum256([]byte(p.Root))
	dir := filepath.Join(state, "shadow", hex.EncodeToString(sum[:8]))
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return "", err
	}
	return filepath.Join(dir, id+".git"), nil
}

// scratchShadowDir is a fresh, empty directory in the user's state dir for
// a throwaway shadow git dir (verification's clean copy); the caller
// removes it. A fixed name in a run directory could be a planted git dir.
func scratchShadowDir(p *Project) (string, error) {
	parent, err := shadowDir(p, NewRunID(time.Now()))
	if err != nil {
		return "", err
	}
	return os.MkdirTemp(filepath.Dir(parent), "verify-*.git")
}

// removeShadow drops a run's shadow git dir once its patch is computed.
func removeShadow(p *Project, id string) {
	if dir, err := shadowDir(p, id); err == nil {
		_ = os.RemoveAll(dir)
		_ = os.RemoveAll(dir + ".policy") // an in-place run's agent policy (Run.policyDir)
	}
}
