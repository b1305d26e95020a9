package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"

	"github.com/sentinelhq/sentinel/internal/atomicfile"
	"github.com/sentinelhq/sentinel/internal/mcpserver"
	"github.com/sentinelhq/sentinel/internal/tomlquote"
)

// mcpReadOnlyPlaces are the home's usual places a model may read; init
// lists those that exist.
var mcpReadOnlyPlaces = []string{"src", "code", "projects", "go/src", "Documents", "notes"}

// mcpCredentialDirs are the home's secrets: no starter path is one of them,
// inside one, or holds one.
var mcpCredentialDirs = []string{".ssh", ".aws", ".gnupg", ".config/gh", ".config/gcloud", ".azure", ".kube", ".docker", ".netrc", ".password-store", ".local/share/keyrings"}

// mcpReadOnlyCommands is the starter allowlist: commands that read.
var mcpReadOnlyCommands = []string{"ls", "cat", "head", "tail", "wc", "stat", "file", "du", "df", "grep", "rg", "uname", "date", "pwd", "git status", "git log", "git diff", "git show", "git branch"}

func newMCPInitCmd() *cobra.Command {
	var file string
	var force bool
	cmd := &cobra.Command{
		Use:   "init [--config FILE] [--force]",
		Short: "Write a commented starter config: this project rw, the home's usual places r, read-only commands",
		Long: `Writes a starter config for sentinel mcp (default ~/.config/sentinel/mcp.toml):
the current directory read-write, those of ~/src, ~/code, ~/projects, ~/go/src,
~/Documents and ~/notes that exist read-only (never ~/.ssh, ~/.aws, ~/.gnupg,
~/.config/gh or other credential dirs), and an allowlist of commands that only
read. An existing file is kept unless --force.`,
		Args: noArgs,
		RunE: func(c *cobra.Command, _ []string) error {
			if file == "" {
				var err error
				if file, err = defaultMCPConfig(); err != nil {
					return err
				}
			}
			cwd, err := os.Getwd()
			if err != nil {
				return fmt.Errorf("find the current directory: %w", err)
			}
			home, _ := os.UserHomeDir()
			return mcpInit(c.OutOrStdout(), file, cwd, home, force)
		},
	}
	cmd.Flags().StringVar(&file, "config", "", "where to write the config (default ~/.config/sentinel/mcp.toml)")
	cmd.Flags().BoolVar(&force, "force", false, "overwrite an existing file")
	return cmd
}

// defaultMCPConfig is $XDG_CONFIG_HOME (else ~/.config)/sentinel/mcp.toml.
func defaultMCPConfig() (string, error) {
	base := os.Getenv("XDG_CONFIG_HOME")
	if !filepath.IsAbs(base) {
		home, err := os.UserHomeDir()
		if err != nil {
			return "", fmt.Errorf("find the config directory (set HOME or pass --config FILE): %w", err)
		}
		base = filepath.Join(home, ".config")
	}
	return filepath.Join(base, "sentinel", "mcp.toml"), nil
}

// mcpInit writes the starter config for project cwd and home to file.
func mcpInit(out io.Writer, file, cwd, home string, force bool) error {
	file, err := filepath.Abs(file)
	if err != nil {
		return err
	}
	if _, err := os.Lstat(file); err == nil && !force {
		return fmt.Errorf("%s already exists: edit it, or pass --force to replace it", file)
	} else if err != nil && !errors.Is(err, os.ErrNotExist) {
		return fmt.Errorf("config %s: %w", file, err)
	}
	text, err := mcpStarterConfig(cwd, home)
	if err != nil {
		return err
	}
	if _, err := mcpserver.ParseConfig(file, text); err != nil {
		return fmt.Errorf("the starter config does not load (a bug; please report it): %w", err)
	}
	if err := os.MkdirAll(filepath.Dir(file), 0o700); err != nil {
		return fmt.Errorf("create %s: %w", filepath.Dir(file), err)
	}
	if err := atomicfile.Write(file, []byte(text), 0o600); err != nil {
		return fmt.Errorf("write %s: %w", file, err)
	}
	fmt.Fprintf(out, "Wrote %s (read it, then adjust [[paths]] and allowed_commands).\n", file)
	fmt.Fprintf(out, "Start the server:\n  sentinel mcp --config %s                          (stdio, for a local MCP client)\n  sentinel mcp --config %s --http 127.0.0.1:8765    (HTTP on loopback)\n  sentinel mcp install --user --config %s           (as a systemd user service)\n", file, file, file)
	return nil
}

// mcpStarterConfig is the commented starter config text.
func mcpStarterConfig(cwd, home string) (string, error) {
	project, err := filepath.EvalSymlinks(cwd)
	if err != nil {
		return "", fmt.Errorf("the current directory %s: %w", cwd, err)
	}
	if filepath.Dir(project) == project {
		return "", fmt.Errorf("the current directory is %s, the whole filesystem: run sentinel mcp init in a project directory", project)
	}
	rhome := ""
	if home != "" {
		if r, err := filepath.EvalSymlinks(home); err == nil {
			rhome = r
		}
	}
	if rhome != "" && within(project, rhome) {
		return "", fmt.Errorf("the current directory %s is or holds the home directory: run sentinel mcp init in a project directory", project)
	}
	if !mcpSafePath(rhome, project) {
		return "", fmt.Errorf("the current directory %s is or holds a credential directory: run sentinel mcp init in a project directory", project)
	}
	var b strings.Builder
	b.WriteString(`# sentinel mcp config, written by sentinel mcp init. See README: sentinel mcp.
# The model may run only allowed_commands, inside Sentinel's sandbox, and
# touch only the [[paths]] below; every call goes to the audit journal.

# allowlist: a command line runs only when each command in it starts with an
# entry below ("git status" allows "git status -s", not "git push").
# strict: the same, and only one plain command per call (no ; && | $( ) >).
# unrestricted: anything the policy does not deny, still sandboxed and audited.
exec_mode = "allowlist"
allowed_commands = [
`)
	for _, c := range mcpReadOnlyCommands {
		fmt.Fprintf(&b, "  %s,\n", tomlquote.String(c))
	}
	b.WriteString(`]

# Commands get no network; "proxy" with allow_hosts = ["HOST"] lets some out.
network = "none"

# Over HTTP a bearer token is required. For sentinel mcp install, uncomment:
# token_env = "SENTINEL_MCP_TOKEN"

# This project: the model may read and change it.
[[paths]]
path = ` + tomlquote.String(project) + `
access = "rw"
`)
	if rhome != "" {
		for _, rel := range mcpReadOnlyPlaces {
			p := filepath.Join(rhome, rel)
			r, err := filepath.EvalSymlinks(p)
			if err != nil {
				continue
			}
			if st, err := os.Stat(r); err != nil || !st.IsDir() {
				continue
			}
			// An r path inside the rw project is refused by the loader; the
			// project covers it.
			if within(project, r) || !mcpSafePath(rhome, r) {
				continue
			}
			fmt.Fprintf(&b, "\n# Read only.\n[[paths]]\npath = %s\naccess = \"r\"\n", tomlquote.String(r))
		}
	}
	b.WriteString(`
# [limits]
# exec_timeout = "60s"
# max_read_bytes = 1048576
`)
	return b.String(), nil
}

// mcpSafePath says p neither is, lies inside, nor holds one of home's
// credential dirs.
func mcpSafePath(home, p string) bool {
	if home == "" {
		return true
	}
	for _, d := range mcpCredentialDirs {
		c := filepath.Join(home, d)
		if within(c, p) || within(p, c) {
			return false
		}
	}
	return true
}

// within says p is dir or inside it.
func within(dir, p string) bool {
	rel, err := filepath.Rel(dir, p)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) && !filepath.IsAbs(rel)
}
