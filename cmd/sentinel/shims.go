package main

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"syscall"

	"github.com/spf13/cobra"

	"github.com/sentinelhq/sentinel/runner/agents"
	"github.com/sentinelhq/sentinel/sandbox"
)

// Launcher shims: small sh scripts named like the agents, in a directory
// the person puts first on PATH, each running `sentinel shim NAME ARGS...`.
// Why scripts and not symlinks to the sentinel binary dispatching on
// argv[0]: a script says what it does to anyone who opens it, names the
// sentinel binary by its absolute path (so the shim works whatever PATH
// holds), and keeps argv[0] dispatch out of main; all the logic (finding
// the real program, refusing, the bypass) is in `sentinel shim`, tested
// here, not in shell.

// shimNames are the programs shims stand in for: the agents the registry
// gives a shim (runner/agents).
var shimNames = agents.Names(agents.Shimmed)

// shimMarker is on the second line of every shim: how Sentinel knows a file
// is one of its shims (to skip it when looking for the real program, and to
// remove only its own files).
const shimMarker = "# sentinel launcher shim"

// BypassEnv, set to 1, makes a shim run the real program bare, outside
// Sentinel, with a warning. It stays in the program's environment, where
// the user service reads it (/proc/PID/environ) and journals the bypass.
const BypassEnv = "SENTINEL_SHIM_BYPASS"

// defaultShimDir is $XDG_DATA_HOME/sentinel/shims (~/.local/share/...).
func defaultShimDir() (string, error) {
	if d := os.Getenv("XDG_DATA_HOME"); filepath.IsAbs(d) {
		return filepath.Join(d, "sentinel", "shims"), nil
	}
	home, err := os.UserHomeDir()
	if err != nil || home == "" {
		return "", errors.New("no home directory for the shims; pass --dir DIR")
	}
	return filepath.Join(home, ".local", "share", "sentinel", "shims"), nil
}

func shimScript(exe, dir, name string) string {
	q := shellQuote
	return "#!/bin/sh\n" + shimMarker + " for " + name + ": runs it through sentinel exec (sentinel shims status; " + BypassEnv + "=1 runs it bare)\n" +
		"exec " + q(exe) + " shim --dir " + q(dir) + " " + q(name) + " \"$@\"\n"
}

func shellQuote(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }

// newShimsCmd builds `sentinel shims` and its install, uninstall and status.
func newShimsCmd() *cobra.Command {
	var dir string
	shims := &cobra.Command{
		Use:   "shims install|uninstall|status [--dir DIR]",
		Short: "Launcher shims that run " + strings.Replace(agents.OrList(shimNames), " or ", " and ", 1) + " through sentinel exec",
		Long: `A shim is a small script named like an agent (` + strings.Join(shimNames, ", ") + `). Put the
shim directory first on PATH and typing the agent's name runs the real
program (found further on PATH) through 'sentinel exec': in place, in the
sandbox, journaled. Where the sandbox cannot be enforced, a shim refuses
instead of running the agent bare.

Emergency bypass: ` + BypassEnv + `=1 makes a shim run the real program bare, with
a warning; the variable stays in the agent's environment, so the user
service journals the bypass.`,
		Args: noArgs,
	}
	shims.PersistentFlags().StringVar(&dir, "dir", "", "the shim `DIR` (default: $XDG_DATA_HOME/sentinel/shims)")
	resolve := func() (string, error) {
		if dir == "" {
			return defaultShimDir()
		}
		return filepath.Abs(dir)
	}
	shims.AddCommand(&cobra.Command{
		Use: "install", Short: "Write the shims and print the line that puts them first on PATH", Args: noArgs,
		RunE: func(c *cobra.Command, _ []string) error {
			d, err := resolve()
			if err != nil {
				return err
			}
			return installShims(c.OutOrStdout(), d)
		},
	})
	shims.AddCommand(&cobra.Command{
		Use: "uninstall", Short: "Remove the shims (only Sentinel's own files)", Args: noArgs,
		RunE: func(c *cobra.Command, _ []string) error {
			d, err := resolve()
			if err != nil {
				return err
			}
			return uninstallShims(c.OutOrStdout(), d)
		},
	})
	shims.AddCommand(&cobra.Command{
		Use: "status", Short: "List the shims, the real program each runs, and whether the shim dir is first on PATH", Args: noArgs,
		RunE: func(c *cobra.Command, _ []string) error {
			d, err := resolve()
			if err != nil {
				return err
			}
			shimStatus(c.OutOrStdout(), d)
			return nil
		},
	})
	return shims
}

// newShimCmd builds the hidden `sentinel shim`, what a launcher shim runs.
func newShimCmd() *cobra.Command {
	var dir string
	shim := &cobra.Command{
		Use: "shim --dir DIR NAME [ARG...]", Hidden: true,
		Short: "What a launcher shim runs: the real NAME through sentinel exec",
		RunE: func(c *cobra.Command, args []string) error {
			if len(args) == 0 || dir == "" {
				return usageError{errors.New("sentinel shim --dir DIR NAME [ARG...] is what a shim runs; install shims with: sentinel shims install")}
			}
			return runShim(c, dir, args[0], args[1:])
		},
	}
	shim.Flags().SetInterspersed(false)
	shim.Flags().StringVar(&dir, "dir", "", "the shim's own directory")
	return shim
}

func installShims(w io.Writer, dir string) error {
	exe, err := os.Executable()
	if err != nil {
		return fmt.Errorf("find the sentinel binary: %w", err)
	}
	if exe, err = filepath.EvalSymlinks(exe); err != nil {
		return fmt.Errorf("find the sentinel binary: %w", err)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("shim dir %s: %w", dir, err)
	}
	for _, n := range shimNames {
		path := filepath.Join(dir, n)
		if b, err := os.ReadFile(path); err == nil && !isShim(b) {
			return fmt.Errorf("%s exists and is not a Sentinel shim; move it away or pick another --dir", path)
		}
		tmp := path + ".tmp"
		if err := os.WriteFile(tmp, []byte(shimScript(exe, dir, n)), 0o755); err != nil {
			return fmt.Errorf("write shim %s: %w", path, err)
		}
		if err := os.Rename(tmp, path); err != nil {
			return fmt.Errorf("write shim %s: %w", path, err)
		}
	}
	fmt.Fprintf(w, "installed shims for %s in %s\n", strings.Join(shimNames, ", "), dir)
	fmt.Fprintf(w, "put them first on PATH (add this line to your shell's startup file):\n%s\n", pathLine(dir))
	return nil
}

// pathLine is the line that puts dir first on PATH in the person's shell.
func pathLine(dir string) string {
	switch filepath.Base(os.Getenv("SHELL")) {
	case "fish":
		return "fish_add_path --prepend " + shellQuote(dir)
	case "csh", "tcsh":
		return "setenv PATH " + shellQuote(dir) + ":$PATH"
	}
	return "export PATH=" + shellQuote(dir) + ":$PATH"
}

func uninstallShims(w io.Writer, dir string) error {
	removed := 0
	for _, n := range shimNames {
		path := filepath.Join(dir, n)
		b, err := os.ReadFile(path)
		if err != nil || !isShim(b) {
			continue
		}
		if err := os.Remove(path); err != nil {
			return err
		}
		removed++
	}
	_ = os.Remove(dir) // only when empty
	fmt.Fprintf(w, "removed %d shim(s) from %s; take it off PATH in your shell's startup file\n", removed, dir)
	return nil
}

func shimStatus(w io.Writer, dir string) {
	first := "no"
	entries := filepath.SplitList(os.Getenv("PATH"))
	if len(entries) > 0 && sameDir(entries[0], dir) {
		first = "yes"
	}
	fmt.Fprintf(w, "shim dir: %s (first on PATH: %s)\n", dir, first)
	if first == "no" {
		fmt.Fprintf(w, "  to put it first: %s\n", pathLine(dir))
	}
	for _, n := range shimNames {
		state := "installed"
		if b, err := os.ReadFile(filepath.Join(dir, n)); err != nil {
			state = "missing"
		} else if !isShim(b) {
			state = "not a Sentinel shim"
		}
		real, err := realProgram(dir, n)
		if err != nil {
			real = "not found on PATH"
		}
		fmt.Fprintf(w, "  %-9s %-20s runs %s\n", n, state, real)
	}
	fmt.Fprintf(w, "bypass: %s=1 runs the real program bare, with a warning (the user service journals it)\n", BypassEnv)
}

func isShim(b []byte) bool { return bytes.Contains(b, []byte("\n"+shimMarker)) }

func sameDir(a, b string) bool {
	return a != "" && b != "" && realPath(a) == realPath(b)
}

// realProgram finds the real name on PATH: never in the shim's own
// directory (however it is spelled or linked on PATH, however often it
// appears), never another Sentinel shim, never a link back to one.
func realProgram(shimDir, name string) (string, error) {
	for _, d := range filepath.SplitList(os.Getenv("PATH")) {
		if d == "" || !filepath.IsAbs(d) || sameDir(d, shimDir) {
			continue
		}
		p := filepath.Join(d, name)
		st, err := os.Stat(p)
		if err != nil || st.IsDir() || st.Mode()&0o111 == 0 {
			continue
		}
		target := realPath(p)
		if sameDir(filepath.Dir(target), shimDir) || isShimFile(target) {
			continue
		}
		return p, nil
	}
	return "", fmt.Errorf("no %s on PATH besides Sentinel's shims (install it, or check PATH)", name)
}

// isShimFile reads the start of path: a Sentinel shim says so on line 2.
func isShimFile(path string) bool {
	f, err := os.Open(path)
	if err != nil {
		return false
	}
	defer f.Close()
	b := make([]byte, 256)
	n, _ := io.ReadFull(f, b)
	return isShim(b[:n])
}

// runShim is a shim's whole job: the real program through sentinel exec,
// or, where the sandbox cannot be enforced, a refusal; bare only on the
// explicit bypass.
func runShim(c *cobra.Command, dir, name string, args []string) error {
	real, err := realProgram(dir, name)
	if err != nil {
		return exitError{code: 127, err: fmt.Errorf("shim %s: %w", name, err)}
	}
	if os.Getenv(BypassEnv) == "1" {
		fmt.Fprintf(os.Stderr, "sentinel: warning: %s=1: running %s bare, outside Sentinel's sandbox and approvals (the user service records this)\n", BypassEnv, real)
		// The variable stays in the environment: the service reads it.
		err := syscall.Exec(real, append([]string{real}, args...), os.Environ())
		return fmt.Errorf("run %s: %w", real, err)
	}
	if caps := sandbox.Probe(""); !caps.Enforceable() {
		return exitError{code: 126, err: fmt.Errorf("shim %s: refusing to run %s: Sentinel cannot enforce its sandbox here (%s); see: sentinel doctor — to run it bare anyway, knowingly: %s=1 %s",
			name, real, probeReason(caps), BypassEnv, name)}
	}
	wd, err := os.Getwd()
	if err != nil {
		return err
	}
	return startExec(c.Context(), execFlags{sandbox: string(sandbox.ModeAuto), timeout: defaultApprovalTimeout}, append([]string{real}, args...), wd)
}

// probeReason names the failed sandbox checks.
func probeReason(caps sandbox.Capabilities) string {
	var why []string
	for _, ck := range caps.Checks {
		if !ck.OK && strings.HasPrefix(ck.Name, "sandbox") {
			why = append(why, ck.Name+": "+ck.Detail)
		}
	}
	if len(why) == 0 {
		return "no sandbox backend ran a confined command"
	}
	return strings.Join(why, "; ")
}
