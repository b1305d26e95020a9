package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/sentinelhq/sentinel/internal/atomicfile"
	"github.com/sentinelhq/sentinel/internal/launchd"
	"github.com/sentinelhq/sentinel/internal/textsafe"
)

// installLaunchd is `sentinel service install` on macOS: the user service
// as a launchd agent in ~/Library/LaunchAgents, bootstrapped into the
// logged-in user's GUI domain (a previous one booted out first).
func installLaunchd(ctx context.Context, out io.Writer) error {
	exe, err := thisBinary()
	if err != nil {
		return err
	}
	home, err := os.UserHomeDir()
	if err != nil {
		return fmt.Errorf("find the home directory for ~/Library/LaunchAgents (set HOME): %w", err)
	}
	text, err := launchd.Plist(exe, home)
	if err != nil {
		return err
	}
	path := launchd.PlistPath(home)
	for _, d := range []string{filepath.Dir(path), filepath.Dir(launchd.LogPath(home))} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			return fmt.Errorf("create %s: %w", d, err)
		}
	}
	if err := atomicfile.Write(path, []byte(text), 0o644); err != nil {
		return fmt.Errorf("write the launchd agent %s: %w", path, err)
	}
	fmt.Fprintf(out, "Wrote %s (%s service).\n", path, exe)
	domain := launchd.Domain(os.Getuid())
	_ = launchctl(ctx, "bootout", domain+"/"+launchd.Label) // not loaded yet is fine
	if err := launchctl(ctx, "bootstrap", domain, path); err != nil {
		fmt.Fprintf(out, "Not started: %v.\nStart it yourself: launchctl bootstrap %s %s\nor run it in the foreground: %s service\n", err, domain, path, exe)
		return nil
	}
	fmt.Fprintf(out, "Started %s in %s: check it with sentinel service status (log: %s).\n", launchd.Label, domain, launchd.LogPath(home))
	return nil
}

// uninstallLaunchd boots the agent out and removes its plist.
func uninstallLaunchd(ctx context.Context, out io.Writer) error {
	home, err := os.UserHomeDir()
	if err != nil {
		return fmt.Errorf("find the home directory (set HOME): %w", err)
	}
	path := launchd.PlistPath(home)
	if _, err := os.Lstat(path); errors.Is(err, os.ErrNotExist) {
		fmt.Fprintf(out, "No launchd agent at %s: nothing to uninstall.\n", path)
		return nil
	}
	domain := launchd.Domain(os.Getuid())
	stopErr := launchctl(ctx, "bootout", domain+"/"+launchd.Label)
	if err := os.Remove(path); err != nil {
		return fmt.Errorf("remove the launchd agent %s: %w", path, err)
	}
	fmt.Fprintf(out, "Removed %s.\n", path)
	if stopErr != nil {
		fmt.Fprintf(out, "Not stopped (%v): launchctl bootout %s/%s\n", stopErr, domain, launchd.Label)
	}
	return nil
}

// launchctl runs /usr/bin/launchctl with args; its output is the error's.
func launchctl(ctx context.Context, args ...string) error {
	if ctx == nil {
		ctx = context.Background()
	}
	b, err := exec.CommandContext(ctx, "/usr/bin/launchctl", args...).CombinedOutput()
	if err != nil {
		return fmt.Errorf("launchctl %v: %v: %s", args, err, textsafe.Line(strings.TrimSpace(string(b))))
	}
	return nil
}
