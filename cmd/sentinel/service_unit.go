package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/sentinelhq/sentinel/internal/atomicfile"
	"github.com/sentinelhq/sentinel/internal/servicewire"
	"github.com/sentinelhq/sentinel/internal/textsafe"
)

// unitName is the systemd user unit `sentinel service install` writes.
const unitName = "sentinel.service"

// serviceUnitCmds are `sentinel service install`, `uninstall` and `status`.
func serviceUnitCmds() []*cobra.Command {
	install := &cobra.Command{
		Use:   "install",
		Short: "Install and start the user service as a systemd user unit",
		Long: `Writes ~/.config/systemd/user/sentinel.service (ExecStart: this binary's
absolute path with "service") and runs systemctl --user daemon-reload and
systemctl --user enable --now sentinel.service. Without systemctl or a user
manager it says exactly what to run instead.`,
		Args: noArgs,
		RunE: func(c *cobra.Command, _ []string) error { return installUnit(c.Context(), c.OutOrStdout()) },
	}
	uninstall := &cobra.Command{
		Use:   "uninstall",
		Short: "Stop the user service's systemd unit and remove it",
		Args:  noArgs,
		RunE:  func(c *cobra.Command, _ []string) error { return uninstallUnit(c.Context(), c.OutOrStdout()) },
	}
	status := &cobra.Command{
		Use:   "status",
		Short: "Say whether the unit is installed and the service answers (its pid and version)",
		Args:  noArgs,
		RunE:  func(c *cobra.Command, _ []string) error { return unitStatus(c.Context(), c.OutOrStdout()) },
	}
	return []*cobra.Command{install, uninstall, status}
}

// unitPath is the user unit's path: $XDG_CONFIG_HOME/systemd/user (else
// ~/.config/systemd/user)/sentinel.service.
func unitPath() (string, error) {
	base := os.Getenv("XDG_CONFIG_HOME")
	if !filepath.IsAbs(base) {
		home, err := os.UserHomeDir()
		if err != nil {
			return "", fmt.Errorf("find the systemd user unit directory (set XDG_CONFIG_HOME or HOME): %w", err)
		}
		base = filepath.Join(home, ".config")
	}
	return filepath.Join(base, "systemd", "user", unitName), nil
}

// unitText is the unit for the binary at exe.
func unitText(exe string) (string, error) {
	if strings.ContainsAny(exe, "\n\r") {
		return "", fmt.Errorf("this binary's path %q has a line break: move sentinel to a plain path and install again", exe)
	}
	quoted := exe
	if strings.ContainsAny(exe, " \t\"'\\%$;") {
		r := strings.NewReplacer(`\`, `\\`, `"`, `\"`, `%`, `%%`, `$`, `$$`)
		quoted = `"` + r.Replace(exe) + `"`
	}
	return `[Unit]
Description=Sentinel user service: the registry of agent runs, adoption of agents started elsewhere, the approval queue
Documentation=man:sentinel(1)

[Service]
Type=simple
ExecStart=` + quoted + ` service
Restart=on-failure
RestartSec=2

[Install]
WantedBy=default.target
`, nil
}

// thisBinary is this sentinel's absolute path, symlinks resolved.
func thisBinary() (string, error) {
	exe, err := os.Executable()
	if err != nil {
		return "", fmt.Errorf("find this binary's path: %w", err)
	}
	if r, err := filepath.EvalSymlinks(exe); err == nil {
		exe = r
	}
	return filepath.Abs(exe)
}

func installUnit(ctx context.Context, out io.Writer) error {
	if runtime.GOOS == "darwin" {
		return installLaunchd(ctx, out)
	}
	exe, err := thisBinary()
	if err != nil {
		return err
	}
	text, err := unitText(exe)
	if err != nil {
		return err
	}
	path, err := unitPath()
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return fmt.Errorf("create %s: %w", filepath.Dir(path), err)
	}
	if err := atomicfile.Write(path, []byte(text), 0o644); err != nil {
		return fmt.Errorf("write the unit %s: %w", path, err)
	}
	fmt.Fprintf(out, "Wrote %s (ExecStart=%s service).\n", path, exe)
	steps := [][]string{{"--user", "daemon-reload"}, {"--user", "enable", "--now", unitName}}
	if err := systemctl(ctx, steps...); err != nil {
		fmt.Fprintf(out, "Not started: %v.\nStart it yourself, where a systemd user manager runs:\n  systemctl --user daemon-reload && systemctl --user enable --now %s\nor run it in the foreground (tmux, a terminal): %s service\n", err, unitName, exe)
		return nil
	}
	fmt.Fprintf(out, "Enabled and started %s: check it with sentinel service status.\n", unitName)
	return nil
}

func uninstallUnit(ctx context.Context, out io.Writer) error {
	if runtime.GOOS == "darwin" {
		return uninstallLaunchd(ctx, out)
	}
	path, err := unitPath()
	if err != nil {
		return err
	}
	if _, err := os.Lstat(path); errors.Is(err, os.ErrNotExist) {
		fmt.Fprintf(out, "No unit at %s: nothing to uninstall.\n", path)
		return nil
	}
	stopErr := systemctl(ctx, []string{"--user", "disable", "--now", unitName})
	if err := os.Remove(path); err != nil {
		return fmt.Errorf("remove the unit %s: %w", path, err)
	}
	fmt.Fprintf(out, "Removed %s.\n", path)
	if stopErr != nil {
		fmt.Fprintf(out, "Not stopped: %v.\nStop it yourself: systemctl --user disable --now %s && systemctl --user daemon-reload\n", stopErr, unitName)
		return nil
	}
	if err := systemctl(ctx, []string{"--user", "daemon-reload"}); err != nil {
		fmt.Fprintf(out, "Run systemctl --user daemon-reload yourself: %v.\n", err)
	}
	fmt.Fprintf(out, "Stopped and disabled %s.\n", unitName)
	return nil
}

func unitStatus(ctx context.Context, out io.Writer) error {
	path, err := unitPath()
	if err != nil {
		return err
	}
	if b, err := os.ReadFile(path); err == nil {
		execLine := ""
		for _, l := range strings.Split(string(b), "\n") {
			if v, ok := strings.CutPrefix(l, "ExecStart="); ok {
				execLine = v
			}
		}
		fmt.Fprintf(out, "unit:    installed at %s (ExecStart=%s)\n", path, textsafe.Line(execLine))
	} else {
		fmt.Fprintf(out, "unit:    not installed (sentinel service install writes %s)\n", path)
	}
	cctx, cancel := context.WithTimeout(ctx, 3*time.Second)
	defer cancel()
	var h servicewire.Hello
	switch err := servicewire.Do(cctx, servicewire.OpHello, nil, &h); {
	case errors.Is(err, servicewire.ErrNotRunning):
		fmt.Fprintln(out, "service: not running (start it: sentinel service install, or sentinel service in a terminal)")
	case err != nil:
		fmt.Fprintf(out, "service: not answering: %v\n", err)
	default:
		bin, _ := os.Readlink(fmt.Sprintf("/proc/%d/exe", h.PID))
		fmt.Fprintf(out, "service: running, pid %d, protocol version %d, since %s\n", h.PID, h.Version, h.Started.Local().Format(time.RFC3339))
		if bin != "" {
			fmt.Fprintf(out, "binary:  %s\n", textsafe.Line(bin))
		}
		fmt.Fprintf(out, "ops:     %s\n", textsafe.Line(strings.Join(h.Ops, ", ")))
	}
	return nil
}

// systemctl runs each systemctl step in order; the first failure stops it
// and says which step and why. No systemctl on PATH is an error too.
func systemctl(ctx context.Context, steps ...[]string) error {
	bin, err := exec.LookPath("systemctl")
	if err != nil {
		return errors.New("systemctl is not on PATH")
	}
	if ctx == nil {
		ctx = context.Background()
	}
	for _, args := range steps {
		cctx, cancel := context.WithTimeout(ctx, 30*time.Second)
		b, err := exec.CommandContext(cctx, bin, args...).CombinedOutput()
		cancel()
		if err != nil {
			msg := strings.TrimSpace(string(b))
			if msg == "" {
				msg = err.Error()
			}
			return fmt.Errorf("systemctl %s failed: %s", strings.Join(args, " "), textsafe.Line(msg))
		}
	}
	return nil
}
