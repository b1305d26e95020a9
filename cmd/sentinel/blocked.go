package main

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/sentinelhq/sentinel/internal/config"
)

// checkBlocked refuses a launch (run, exec and so the shims) in or under a
// directory the person's [service] blocked_dirs names. Symlinks are
// resolved on both sides, so no link into a blocked directory gets around
// it. Only the user config is read: a project cannot set the machine's
// rules (config.LoadProject drops its [service]).
func checkBlocked(dirs ...string) error {
	cdir, err := os.UserConfigDir()
	if err != nil {
		return nil // no user config, no blocked_dirs
	}
	file := filepath.Join(cdir, "sentinel", "config.toml")
	cfg, err := config.LoadFile(file)
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err // a config Sentinel cannot read blocks nothing silently: it is an error
	}
	home, _ := os.UserHomeDir()
	for _, b := range cfg.Service.BlockedDirs {
		if rest, ok := strings.CutPrefix(b, "~/"); ok {
			if home == "" {
				continue
			}
			b = filepath.Join(home, rest)
		}
		blocked := realPath(filepath.Clean(b))
		for _, d := range dirs {
			here := realPath(d)
			if here == blocked || strings.HasPrefix(here, strings.TrimSuffix(blocked, "/")+"/") {
				return fmt.Errorf("launches are blocked in %s (blocked_dirs in %s); run from another directory or remove it from blocked_dirs", blocked, file)
			}
		}
	}
	return nil
}

// realPath is path with its symlinks resolved, as far as it exists.
func realPath(path string) string {
	abs, err := filepath.Abs(path)
	if err != nil {
		return path
	}
	if r, err := filepath.EvalSymlinks(abs); err == nil {
		return r
	}
	// Resolve the longest existing parent: a blocked directory not made
	// yet still names where it would be.
	parent, base := filepath.Dir(abs), filepath.Base(abs)
	if parent == abs {
		return abs
	}
	return filepath.Join(realPath(parent), base)
}
