package opencode

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"

	"github.com/sentinelhq/sentinel/internal/filestamp"
)

// In place, opencode's sessions for the project are kept across runs
// (31.7): a second `sentinel exec -- opencode --continue` (or `session
// list`, `--session ID`) finds what the first one did.
//
// opencode (1.18) keeps every session of every project, and the person's
// console logins and credentials (its account, control_account and
// credential tables), in one SQLite file, ~/.local/share/opencode/opencode.db,
// which the person's own opencode reads on the host. So the run is never
// given that file, nor a copy to merge back: the coder would see other
// projects' sessions and the stored credentials, and whatever it wrote
// into the file (a project's "start" command, a session's parts) would be
// read by the person's opencode outside the sandbox. Instead each project
// has a session store of its own, kept by Sentinel outside every project
// and outside the person's opencode dirs:
//
//	$XDG_DATA_HOME/sentinel/opencode/<key>/opencode.db   (key: the project's path, hashed)
//
// which the run's opencode opens through OPENCODE_DB and the sandbox shows
// writable: nothing else of it is there, nothing of it is ever read on the
// host (Sentinel only makes the directory), and no opencode outside a run
// of this project opens it. Its config, plugins and login stay the run's
// own, made fresh by Prepare (the config dir read-only), so nothing the
// coder writes into the store can become code or settings that any
// opencode later loads. Two runs of one project share the store as two
// opencode processes share the person's file (SQLite's own locking).
// The store is opencode's own state (AgentStateDirs): in place, the
// commands it starts cannot write it (internal/shellscope), so none can
// plant a session that a later run's opencode continues.
//
// What this costs: sessions the person made with opencode directly are
// not seen inside, and sessions made inside are not seen by their direct
// opencode. opencode's snapshots (for undoing a session's edits) stay the
// run's own and go with it.

// sessionsDir is where the stores live, under Sentinel's XDG data dir.
const sessionsDir = "sentinel/opencode"

// dbFile is the store's database, as OPENCODE_DB names it.
const dbFile = "opencode.db"

// sessionStore is the project's session store (made 0700 when missing)
// and the other projects' stores beside it, which the sandbox hides in
// case a readable path covers them. The store must be a directory of the
// person's own, not a link, that no one else may write.
func sessionStore(home string, getenv func(string) string, project string) (store string, others []string, err error) {
	base := personDir(home, getenv("XDG_DATA_HOME"), ".local/share")
	if base == "" || !filepath.IsAbs(project) {
		return "", nil, fmt.Errorf("opencode: no place for the project's sessions (set HOME or XDG_DATA_HOME)")
	}
	sum := sha256.Sum256([]byte(filepath.Clean(project)))
	dir := filepath.Join(base, sessionsDir, hex.EncodeToString(sum[:8]))
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return "", nil, fmt.Errorf("opencode: make the project's session store: %w", err)
	}
	if err := ownPrivateDir(dir); err != nil {
		return "", nil, err
	}
	// The sandbox mounts the directory a path resolves to: the store's own
	// path (the person's ~/.local may be a link).
	if dir, err = filepath.EvalSymlinks(dir); err != nil {
		return "", nil, fmt.Errorf("opencode: the project's session store: %w", err)
	}
	ents, err := os.ReadDir(filepath.Dir(dir))
	if err != nil {
		return "", nil, fmt.Errorf("opencode: the session stores: %w", err)
	}
	for _, e := range ents {
		if e.Name() != filepath.Base(dir) {
			others = append(others, filepath.Join(filepath.Dir(dir), e.Name()))
		}
	}
	return dir, others, nil
}

// ownPrivateDir refuses a store that is not a directory (a link), is
// someone else's, or that others may write.
func ownPrivateDir(dir string) error {
	fi, err := os.Lstat(dir)
	if err != nil {
		return fmt.Errorf("opencode: the project's session store: %w", err)
	}
	bad := !fi.IsDir() || fi.Mode().Perm()&0o022 != 0
	if st, ok := filestamp.Of(fi); ok && st.UID != os.Geteuid() {
		bad = true
	}
	if bad {
		return fmt.Errorf("opencode: the project's session store %s is not a private directory of yours (remove it; Sentinel makes it again)", dir)
	}
	return nil
}
