package runner

// Shared checkouts: the read-only lower layer of overlay workspaces
// (workspace_overlay.go). One checkout of a snapshot's tree serves every run
// whose snapshot has that tree, so a workspace costs O(1) once it exists.
//
// Where: $XDG_STATE_HOME/sentinel/checkouts/<project>/<tree>/, holding
// tree/ (a `git clone --shared` checked out at the snapshot), marker (what
// Sentinel signed when it finished the checkout) and leases/ (one file per
// run using it). The state directory is hidden inside every sandbox, and a
// checkout is only ever a lower layer, which overlayfs never writes: no
// coder can write one. Before reuse Sentinel checks it cheaply anyway —
// owned by this user, writable by nobody else, not a symlink, and its
// marker signed under the user's record key (internal/userstate) for this
// project, this tree, this path and this directory's inode — and a
// checkout that fails is removed and made again, never used.
//
// Made atomically: in a fresh temporary directory beside it, renamed into
// place once complete and signed; a concurrent maker's rename loses and
// uses the winner's.
//
// Bounded: each use refreshes the marker's mtime (last use). After a
// workspace is made, SweepCheckouts removes every checkout no live run
// holds a lease on that is older than CheckoutMaxAge since its last use, and
// beyond the CheckoutKeep most recently used ones. `sentinel checkouts`
// lists them and clears them.

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/sentinelhq/sentinel/internal/filestamp"
	"github.com/sentinelhq/sentinel/internal/procgroup"
	"github.com/sentinelhq/sentinel/internal/userstate"
)

const (
	checkoutPurpose = "shared-checkout"
	// CheckoutKeep is how many shared checkouts are kept (most recently
	// used first), across projects.
	CheckoutKeep = 8
	// CheckoutMaxAge is how long an unused shared checkout is kept.
	CheckoutMaxAge = 7 * 24 * time.Hour
)

// checkoutMarker is what Sentinel signs when a checkout is complete.
type checkoutMarker struct {
	Project string `json:"project"`
	Tree    string `json:"tree"`
	Commit  string `json:"commit"` // the snapshot it was checked out at
	Path    string `json:"path"`
	Inode   uint64 `json:"inode"`
}

type signedMarker struct {
	Marker checkoutMarker `json:"marker"`
	Sig    string         `json:"sig"`
}

// checkoutsRoot is $XDG_STATE_HOME/sentinel/checkouts.
func checkoutsRoot() (string, error) {
	state, err := userstate.Dir()
	if err != nil {
		return "", err
	}
	return filepath.Join(state, "checkouts"), nil
}

func projectKey(p *Project) string {
	sum := sha256.Sum256([]byte(p.Root))
	return hex.EncodeToString(sum[:8])
}

// sharedCheckout returns the verified shared checkout (its tree/ dir) of
// snap's tree for p, making it when there is none (made reports that), and
// leases it to run id.
func sharedCheckout(ctx context.Context, p *Project, snap Snapshot, id string) (lower string, made bool, err error) {
	tree := snap.Tree
	if tree == "" {
		if tree, err = (gitCmd{dir: p.Root}).line(ctx, "rev-parse", "--verify", snap.Commit+"^{tree}"); err != nil {
			return "", false, err
		}
	}
	root, err := checkoutsRoot()
	if err != nil {
		return "", false, err
	}
	parent := filepath.Join(root, projectKey(p))
	if err := os.MkdirAll(parent, 0o700); err != nil {
		return "", false, err
	}
	entry := filepath.Join(parent, tree)
	for attempt := 0; ; attempt++ {
		err := verifyCheckout(p, entry, tree)
		if err == nil {
			break
		}
		if attempt > 1 {
			return "", false, fmt.Errorf("shared checkout %s: %w", entry, err)
		}
		if !errors.Is(err, os.ErrNotExist) {
			if rerr := removeCheckout(entry); rerr != nil {
				return "", false, fmt.Errorf("remove the unverifiable shared checkout %s: %w", entry, rerr)
			}
		}
		if err := makeCheckout(ctx, p, snap, tree, parent, entry); err != nil {
			return "", false, err
		}
		made = true
	}
	now := time.Now()
	_ = os.Chtimes(filepath.Join(entry, "marker"), now, now)
	if err := os.WriteFile(filepath.Join(entry, "leases", id), []byte(strconv.Itoa(os.Getpid())), 0o600); err != nil {
		return "", false, fmt.Errorf("lease the shared checkout: %w", err)
	}
	return filepath.Join(entry, "tree"), made, nil
}

// makeCheckout checks snap out in a temporary directory beside entry, signs
// it and renames it into place. Losing the rename to a concurrent maker is
// not an error: the caller verifies what is there.
func makeCheckout(ctx context.Context, p *Project, snap Snapshot, tree, parent, entry string) error {
	tmp, err := os.MkdirTemp(parent, "tmp-")
	if err != nil {
		return err
	}
	defer removeCheckout(tmp)
	dir := filepath.Join(tmp, "tree")
	g := gitCmd{dir: p.Root}
	if _, err := g.run(ctx, "clone", "--shared", "--no-checkout", "--quiet", "--", p.Root, dir); err != nil {
		return fmt.Errorf("shared checkout: %w", err)
	}
	w := gitCmd{dir: dir}
	if _, err := w.run(ctx, "remote", "remove", "origin"); err != nil {
		return err
	}
	if _, err := w.run(ctx, "checkout", "--quiet", "--detach", snap.Commit); err != nil {
		return fmt.Errorf("check out the snapshot: %w", err)
	}
	if err := os.Mkdir(filepath.Join(tmp, "leases"), 0o700); err != nil {
		return err
	}
	// Read-only to everyone from here on (the runs' overlays never write it).
	if err := os.Chmod(dir, 0o500); err != nil {
		return err
	}
	if err := signCheckout(p, tmp, entry, tree, snap.Commit); err != nil {
		return err
	}
	if err := os.Rename(tmp, entry); err != nil && !errors.Is(err, os.ErrExist) && !errors.Is(err, syscall.ENOTEMPTY) {
		return err
	}
	return nil
}

// signCheckout writes the marker of the checkout built in dir, to be found
// at final.
func signCheckout(p *Project, dir, final, tree, commit string) error {
	st, err := os.Lstat(filepath.Join(dir, "tree"))
	if err != nil {
		return err
	}
	m := checkoutMarker{Project: p.Root, Tree: tree, Commit: commit, Path: filepath.Join(final, "tree"), Inode: inodeOf(st)}
	b, _ := json.Marshal(m)
	sig, err := userstate.Sign(checkoutPurpose, b)
	if err != nil {
		return err
	}
	out, _ := json.Marshal(signedMarker{Marker: m, Sig: sig})
	return os.WriteFile(filepath.Join(dir, "marker"), out, 0o600)
}

// verifyCheckout proves entry is a complete checkout Sentinel made of tree
// for p: os.ErrNotExist when there is none.
func verifyCheckout(p *Project, entry, tree string) error {
	for _, d := range []string{entry, filepath.Join(entry, "tree"), filepath.Join(entry, "leases")} {
		st, err := os.Lstat(d)
		if err != nil {
			if errors.Is(err, os.ErrNotExist) && d == entry {
				return err
			}
			return fmt.Errorf("incomplete: %w", err)
		}
		if !st.IsDir() {
			return fmt.Errorf("%s is not a directory", d)
		}
		if err := ownedPrivately(st); err != nil {
			return fmt.Errorf("%s: %w", d, err)
		}
	}
	b, err := os.ReadFile(filepath.Join(entry, "marker"))
	if err != nil {
		return fmt.Errorf("no marker: %w", err)
	}
	var sm signedMarker
	if err := json.Unmarshal(b, &sm); err != nil {
		return fmt.Errorf("marker: %w", err)
	}
	raw, _ := json.Marshal(sm.Marker)
	if !userstate.Verify(checkoutPurpose, raw, sm.Sig) {
		return errors.New("marker not signed by this user's Sentinel")
	}
	st, _ := os.Lstat(filepath.Join(entry, "tree"))
	m := sm.Marker
	if m.Project != p.Root || m.Tree != tree || m.Path != filepath.Join(entry, "tree") || m.Inode != inodeOf(st) {
		return errors.New("marker is for another checkout")
	}
	return nil
}

// inodeOf is st's inode (0 where the platform has none: Windows, where no
// checkout is reused).
func inodeOf(st os.FileInfo) uint64 {
	s, _ := filestamp.Of(st)
	return s.Ino
}

// ownedPrivately refuses what another user owns or may write.
func ownedPrivately(st os.FileInfo) error {
	sys, ok := filestamp.Of(st)
	if !ok || sys.UID != os.Getuid() {
		return errors.New("not owned by this user")
	}
	if st.Mode().Perm()&0o022 != 0 {
		return fmt.Errorf("writable by others (%s)", st.Mode().Perm())
	}
	return nil
}

// releaseCheckout drops run id's lease on the shared checkout lower (a
// tree/ dir sharedCheckout returned).
func releaseCheckout(lower, id string) {
	if lower != "" && ValidRunID(id) {
		_ = os.Remove(filepath.Join(filepath.Dir(lower), "leases", id))
	}
}

// removeCheckout removes a checkout directory (its tree is read-only).
func removeCheckout(dir string) error {
	_ = os.Chmod(filepath.Join(dir, "tree"), 0o700)
	return os.RemoveAll(dir)
}

// CheckoutInfo is one shared checkout, for `sentinel checkouts`.
type CheckoutInfo struct {
	Dir     string    `json:"dir"`
	Project string    `json:"project"`
	Tree    string    `json:"tree"`
	LastUse time.Time `json:"last_use"`
	InUse   int       `json:"in_use"` // live runs holding a lease
}

// ListCheckouts lists the shared checkouts, most recently used first.
func ListCheckouts() ([]CheckoutInfo, error) {
	root, err := checkoutsRoot()
	if err != nil {
		return nil, err
	}
	projects, err := os.ReadDir(root)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var out []CheckoutInfo
	for _, pd := range projects {
		entries, _ := os.ReadDir(filepath.Join(root, pd.Name()))
		for _, e := range entries {
			dir := filepath.Join(root, pd.Name(), e.Name())
			info := CheckoutInfo{Dir: dir, Tree: e.Name()}
			if st, err := os.Stat(filepath.Join(dir, "marker")); err == nil {
				info.LastUse = st.ModTime()
			} else if st, err := os.Lstat(dir); err == nil {
				info.LastUse = st.ModTime() // unfinished or broken
			}
			var sm signedMarker
			if b, err := os.ReadFile(filepath.Join(dir, "marker")); err == nil && json.Unmarshal(b, &sm) == nil {
				info.Project = sm.Marker.Project
			}
			info.InUse = liveLeases(dir)
			out = append(out, info)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].LastUse.After(out[j].LastUse) })
	return out, nil
}

// liveLeases counts the leases on a checkout whose run's process lives.
func liveLeases(dir string) int {
	leases, _ := os.ReadDir(filepath.Join(dir, "leases"))
	n := 0
	for _, l := range leases {
		b, err := os.ReadFile(filepath.Join(dir, "leases", l.Name()))
		if err != nil {
			continue
		}
		pid, err := strconv.Atoi(strings.TrimSpace(string(b)))
		if err != nil || pid <= 0 {
			continue
		}
		if procgroup.Alive(pid) {
			n++
		}
	}
	return n
}

// SweepCheckouts removes the shared checkouts no live run uses that are
// unused for longer than maxAge or beyond the keep most recently used (and
// leftovers of interrupted makes older than an hour). It returns what it
// removed.
func SweepCheckouts(keep int, maxAge time.Duration) ([]string, error) {
	all, err := ListCheckouts()
	if err != nil {
		return nil, err
	}
	var removed []string
	kept := 0
	for _, c := range all {
		tmp := strings.HasPrefix(filepath.Base(c.Dir), "tmp-")
		switch {
		case c.InUse > 0:
			kept++
			continue
		case tmp && time.Since(c.LastUse) < time.Hour:
			continue // being made
		case !tmp && kept < keep && time.Since(c.LastUse) <= maxAge:
			kept++
			continue
		}
		if err := removeCheckout(c.Dir); err != nil {
			return removed, err
		}
		removed = append(removed, c.Dir)
	}
	return removed, nil
}

// ClearCheckouts removes every shared checkout no live run uses.
func ClearCheckouts() ([]string, error) { return SweepCheckouts(0, 0) }
