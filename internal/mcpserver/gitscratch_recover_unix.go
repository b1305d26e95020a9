//go:build unix

package mcpserver

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"syscall"

	"github.com/sentinelhq/sentinel/internal/filelock"
	"github.com/sentinelhq/sentinel/internal/gitstore"
	"github.com/sentinelhq/sentinel/internal/nofollow"
)

// A server killed while a command ran (kill -9, a crash, a closed
// terminal) leaves its scratch object dir behind, and the command's
// commits may already be on the person's branch with their objects only
// there. So each scratch dir lives in a private dir of the temp dir
// (sentinel-mcp-objects-*, the user's own, mode 0700) beside two files
// out of the commands' reach: stores, what object stores it is for, and
// lock, held while its server lives. A server starting its sandbox proves
// and moves in what the scratch dir of a server that is gone holds, as
// after a command, and removes it.

const scratchPrefix = "sentinel-mcp-objects-"

// recordScratch writes what the scratch dir in base is for and holds its
// lock while this server lives.
func (g *gitGuard) recordScratch(base string) error {
	f, err := os.OpenFile(filepath.Join(base, "lock"), os.O_CREATE|os.O_RDWR, 0o600)
	if err != nil {
		return err
	}
	if err := filelock.TryLock(f); err != nil {
		f.Close()
		return err
	}
	g.lock = f
	b, err := json.Marshal(g.stores)
	if err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(base, "stores"), b, 0o600)
}

// recoverScratch moves in the proven objects of every scratch dir whose
// server is gone and says what it did.
func recoverScratch(ctx context.Context, ours []gitstore.Store) []string {
	bases, _ := filepath.Glob(filepath.Join(os.TempDir(), scratchPrefix+"*"))
	var said []string
	for _, base := range bases {
		fi, err := os.Lstat(base)
		if err != nil || !fi.IsDir() || fi.Mode().Perm() != 0o700 {
			continue
		}
		if st, ok := fi.Sys().(*syscall.Stat_t); !ok || int(st.Uid) != os.Getuid() {
			continue // another user's: not ours to read or move
		}
		said = append(said, recoverOne(ctx, base, ours)...)
	}
	return said
}

func recoverOne(ctx context.Context, base string, ours []gitstore.Store) []string {
	f, err := nofollow.OpenFile(filepath.Join(base, "lock"), os.O_RDWR, 0)
	if err != nil {
		return nil // not made by a server (yet): left alone
	}
	defer f.Close()
	if err := filelock.TryLock(f); err != nil {
		return nil // its server lives (or its lock cannot be taken): left alone
	}
	b, err := os.ReadFile(filepath.Join(base, "stores"))
	if err != nil {
		return nil
	}
	g := &gitGuard{scratch: filepath.Join(base, "objects")}
	var named []gitstore.Store
	if err := json.Unmarshal(b, &named); err != nil || len(named) == 0 {
		return []string{fmt.Sprintf("the scratch object dir %s of an earlier sentinel mcp names no repository; it is left there", base)}
	}
	// Only this server's rw repositories are moved into, each as this
	// server knows it (its object format too): the record is a file in the
	// temp dir, not a list to trust; only its directories are read.
	for _, st := range named {
		if i := slices.IndexFunc(ours, func(o gitstore.Store) bool { return o.Dir == st.Dir }); i >= 0 && !slices.Contains(g.stores, ours[i]) {
			g.stores = append(g.stores, ours[i])
		}
	}
	if len(g.stores) == 0 {
		return []string{fmt.Sprintf("the scratch object dir %s of an earlier sentinel mcp names none of this server's repositories; it is left there", base)}
	}
	said := g.moveIn(ctx, true)
	if _, err := os.Lstat(base); errors.Is(err, os.ErrNotExist) {
		said = append(said, fmt.Sprintf("the new git objects an earlier sentinel mcp's commands left in %s (it ended before moving them in) were checked and moved into your repositories", base))
	}
	return said
}
