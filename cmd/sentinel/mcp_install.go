package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/user"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"

	"github.com/sentinelhq/sentinel/internal/atomicfile"
	"github.com/sentinelhq/sentinel/internal/mcpserver"
	"github.com/sentinelhq/sentinel/internal/textsafe"
	"github.com/sentinelhq/sentinel/internal/userstate"
)

// mcpUnitName is the systemd unit `sentinel mcp install` writes.
const mcpUnitName = "sentinel-mcp.service"

// mcpScope is where the unit goes: the user's manager or the system's.
type mcpScope struct {
	system bool
}

func (s mcpScope) ctl(args ...string) []string {
	if s.system {
		return args
	}
	return append([]string{"--user"}, args...)
}

func (s mcpScope) flag() string {
	if s.system {
		return "--system"
	}
	return "--user"
}

// check refuses --system for a user that is not root.
func (s mcpScope) check(euid int) error {
	if s.system && euid != 0 {
		return errors.New("sentinel mcp --system needs root: run it with sudo, or use --user")
	}
	return nil
}

// unitPath is the unit file's path.
func (s mcpScope) unitPath() (string, error) {
	if s.system {
		return filepath.Join("/etc/systemd/system", mcpUnitName), nil
	}
	p, err := unitPath()
	if err != nil {
		return "", err
	}
	return filepath.Join(filepath.Dir(p), mcpUnitName), nil
}

// tokenFile is the EnvironmentFile holding the bearer token.
func (s mcpScope) tokenFile() (string, error) {
	if s.system {
		return "/etc/sentinel/mcp-token.env", nil
	}
	c, err := defaultMCPConfig()
	if err != nil {
		return "", err
	}
	return filepath.Join(filepath.Dir(c), "mcp-token.env"), nil
}

func newMCPServiceCmds() []*cobra.Command {
	var user, system bool
	var file, addr string
	scope := func() (mcpScope, error) {
		if user && system {
			return mcpScope{}, usageError{errors.New("give --user or --system, not both")}
		}
		s := mcpScope{system: system}
		return s, s.check(os.Geteuid())
	}
	install := &cobra.Command{
		Use:   "install [--user|--system] [--config FILE] [--http ADDR]",
		Short: "Install and start sentinel mcp --http as a hardened systemd unit",
		Long: `Writes sentinel-mcp.service (~/.config/systemd/user, or /etc/systemd/system with
--system) running this binary as "sentinel mcp --config FILE --http ADDR",
hardened (NoNewPrivileges, ProtectSystem=strict, ProtectHome read-only with
ReadWritePaths for the config's rw paths, PrivateTmp, RestrictAddressFamilies),
and enables it. The bearer token comes from an EnvironmentFile (mode 0600,
generated if missing) under the variable the config's token_env names.`,
		Args: noArgs,
		RunE: func(c *cobra.Command, _ []string) error {
			s, err := scope()
			if err != nil {
				return err
			}
			if file == "" {
				if file, err = defaultMCPConfig(); err != nil {
					return err
				}
			}
			return mcpInstall(c.Context(), c.OutOrStdout(), s, file, addr)
		},
	}
	install.Flags().StringVar(&file, "config", "", "the server's config (default ~/.config/sentinel/mcp.toml)")
	install.Flags().StringVar(&addr, "http", "127.0.0.1:8765", "the address the service listens on")
	uninstall := &cobra.Command{
		Use:   "uninstall [--user|--system]",
		Short: "Stop and remove the sentinel mcp systemd unit (the token file is kept)",
		Args:  noArgs,
		RunE: func(c *cobra.Command, _ []string) error {
			s, err := scope()
			if err != nil {
				return err
			}
			return mcpUninstall(c.Context(), c.OutOrStdout(), s)
		},
	}
	status := &cobra.Command{
		Use:   "status [--user|--system]",
		Short: "Say whether the sentinel mcp unit is installed and active",
		Args:  noArgs,
		RunE: func(c *cobra.Command, _ []string) error {
			s, err := scope()
			if err != nil {
				return err
			}
			return mcpStatus(c.Context(), c.OutOrStdout(), s)
		},
	}
	for _, c := range []*cobra.Command{install, uninstall, status} {
		c.Flags().BoolVar(&user, "user", false, "the user's systemd manager (the default)")
		c.Flags().BoolVar(&system, "system", false, "the system's systemd manager (root only)")
	}
	return []*cobra.Command{install, uninstall, status}
}

// mcpUnit is what the unit text is made from.
type mcpUnit struct {
	Exe, Config, Addr string
	TokenFile         string   // EnvironmentFile; empty when the config holds the token
	RW                []string // writable: the config's rw paths and the state dir
	Home              bool     // something the server needs lies under a home
	Tmp               bool     // something the server needs lies under /tmp or /var/tmp
	System            bool
}

// mcpUnitText is the hardened unit.
func mcpUnitText(u mcpUnit) (string, error) {
	for _, p := range append([]string{u.Exe, u.Config, u.Addr, u.TokenFile}, u.RW...) {
		if strings.ContainsAny(p, " \t\n\r\"'\\") {
			return "", fmt.Errorf("%q holds a space, quote or backslash: systemd cannot take it here; use a plain path", p)
		}
	}
	esc := func(s string) string { return strings.ReplaceAll(s, "%", "%%") }
	protectHome := "yes"
	if u.Home {
		protectHome = "read-only"
	}
	privateTmp := "yes"
	if u.Tmp {
		// A private /tmp would hide what the server needs there.
		privateTmp = "no"
	}
	wanted := "default.target"
	if u.System {
		wanted = "multi-user.target"
	}
	var b strings.Builder
	fmt.Fprintf(&b, `[Unit]
Description=Sentinel MCP server: allowlisted shell and path-gated file tools for remote models
Documentation=man:sentinel(1)

[Service]
Type=simple
ExecStart=%s mcp --config %s --http %s
ExecReload=/bin/kill -HUP $MAINPID
`, esc(u.Exe), esc(u.Config), esc(u.Addr))
	if u.TokenFile != "" {
		fmt.Fprintf(&b, "EnvironmentFile=%s\n", esc(u.TokenFile))
	}
	fmt.Fprintf(&b, `Restart=on-failure
RestartSec=2
UMask=0077
NoNewPrivileges=yes
ProtectSystem=strict
ProtectHome=%s
PrivateTmp=%s
PrivateDevices=yes
ProtectKernelTunables=yes
ProtectKernelModules=yes
ProtectKernelLogs=yes
ProtectControlGroups=yes
ProtectClock=yes
RestrictAddressFamilies=AF_UNIX AF_INET AF_INET6 AF_NETLINK
RestrictRealtime=yes
RestrictSUIDSGID=yes
LockPersonality=yes
# No RestrictNamespaces or MemoryDenyWriteExecute: the sandbox needs namespaces,
# and the commands it runs (node, JITs) inherit the latter.
SystemCallArchitectures=native
`, protectHome, privateTmp)
	for _, p := range u.RW {
		// "-": a path missing at start does not stop the unit.
		fmt.Fprintf(&b, "ReadWritePaths=-%s\n", esc(p))
	}
	fmt.Fprintf(&b, "\n[Install]\nWantedBy=%s\n", wanted)
	return b.String(), nil
}

// underHome says p lies where ProtectHome=yes would hide it.
func underHome(p string) bool {
	for _, h := range []string{"/home", "/root", "/run/user"} {
		if within(h, p) {
			return true
		}
	}
	return false
}

// mcpPrepare loads the config, makes the token file and the unit text.
func mcpPrepare(s mcpScope, exe, file, addr, tokenFile, stateDir string) (unit string, notes []string, err error) {
	file, err = filepath.Abs(file)
	if err != nil {
		return "", nil, err
	}
	cfg, err := mcpserver.LoadConfig(file)
	if err != nil {
		return "", nil, err
	}
	if err := mcpserver.CheckListen(addr, strings.Repeat("x", 32)); err != nil {
		return "", nil, err
	}
	if cfg.Token == "" && cfg.TokenEnv == "" {
		return "", nil, fmt.Errorf("%s sets neither token nor token_env: add token_env = \"SENTINEL_MCP_TOKEN\" and install again (the token file is made for you)", file)
	}
	u := mcpUnit{Exe: exe, Config: file, Addr: addr, System: s.system}
	if cfg.TokenEnv != "" {
		u.TokenFile = tokenFile
		made, err := ensureTokenFile(tokenFile, cfg.TokenEnv)
		if err != nil {
			return "", nil, err
		}
		if made {
			notes = append(notes, fmt.Sprintf("Made the token file %s (mode 0600); clients send Authorization: Bearer <the value in it>.", tokenFile))
		}
	}
	for _, p := range cfg.Paths {
		if p.Access == mcpserver.AccessReadWrite {
			u.RW = append(u.RW, p.Path)
		}
	}
	u.RW = append(u.RW, stateDir)
	if cfg.Audit != "" {
		u.RW = append(u.RW, filepath.Dir(cfg.Audit))
	}
	for _, p := range append([]string{exe, file, u.TokenFile}, u.RW...) {
		u.Home = u.Home || underHome(p)
		u.Tmp = u.Tmp || within("/tmp", p) || within("/var/tmp", p)
	}
	for _, p := range cfg.Paths {
		u.Home = u.Home || underHome(p.Path)
		u.Tmp = u.Tmp || within("/tmp", p.Path) || within("/var/tmp", p.Path)
	}
	if !s.system {
		more, err := mcpPolkitRule(cfg, filepath.Join(filepath.Dir(tokenFile), "sentinel-mcp-polkit.rules"))
		if err != nil {
			return "", nil, err
		}
		notes = append(notes, more...)
	}
	if len(cfg.Sudo.Files) > 0 {
		notes = append(notes, mcpSudoNote(exe))
	}
	text, err := mcpUnitText(u)
	return text, notes, err
}

// mcpPolkitRule writes the polkit rule that lets this user's service take
// the configured service actions (mcpserver.ServicePolkitRule) to path,
// for the person to install as root; the notes say how.
func mcpPolkitRule(cfg *mcpserver.Config, path string) ([]string, error) {
	me, err := user.Current()
	if err != nil {
		return nil, fmt.Errorf("polkit rule: who am I: %w", err)
	}
	rule, notes, err := mcpserver.ServicePolkitRule(cfg, me.Username)
	if err != nil || rule == "" {
		return notes, err
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return nil, fmt.Errorf("create %s: %w", filepath.Dir(path), err)
	}
	if err := atomicfile.Write(path, []byte(rule), 0o644); err != nil {
		return nil, fmt.Errorf("write the polkit rule %s: %w", path, err)
	}
	return append(notes, fmt.Sprintf("The service tool's start/stop/restart/reload of system units needs polkit's yes: %s allows exactly the configured ones for %s. Read it, then install it:\n  sudo install -m 0644 -o root -g root %s %s",
		path, me.Username, path, mcpserver.PolkitRulesPath)), nil
}

// ensureTokenFile makes path (NAME=token, mode 0600) when missing, and
// refuses one that others may read.
func ensureTokenFile(path, name string) (made bool, err error) {
	st, err := os.Stat(path)
	if err == nil {
		if st.Mode().Perm()&0o077 != 0 {
			return false, fmt.Errorf("token file %s has mode %04o: run chmod 600 %s", path, st.Mode().Perm(), path)
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return false, fmt.Errorf("token file %s: %w", path, err)
		}
		if !strings.Contains("\n"+string(b), "\n"+name+"=") {
			return false, fmt.Errorf("token file %s does not set %s: add a line %s=<at least 16 characters>, or remove the file to have one made", path, name, name)
		}
		return false, nil
	}
	if !errors.Is(err, os.ErrNotExist) {
		return false, fmt.Errorf("token file %s: %w", path, err)
	}
	tok, err := mcpserver.NewToken()
	if err != nil {
		return false, err
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return false, fmt.Errorf("create %s: %w", filepath.Dir(path), err)
	}
	if err := atomicfile.Write(path, []byte(name+"="+tok+"\n"), 0o600); err != nil {
		return false, fmt.Errorf("write the token file %s: %w", path, err)
	}
	return true, nil
}

func mcpInstall(ctx context.Context, out io.Writer, s mcpScope, file, addr string) error {
	exe, err := thisBinary()
	if err != nil {
		return err
	}
	tokenFile, err := s.tokenFile()
	if err != nil {
		return err
	}
	stateDir, err := userstate.Dir()
	if err != nil {
		return err
	}
	text, notes, err := mcpPrepare(s, exe, file, addr, tokenFile, stateDir)
	if err != nil {
		return err
	}
	path, err := s.unitPath()
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return fmt.Errorf("create %s: %w", filepath.Dir(path), err)
	}
	if err := atomicfile.Write(path, []byte(text), 0o644); err != nil {
		return fmt.Errorf("write the unit %s: %w", path, err)
	}
	fmt.Fprintf(out, "Wrote %s (sentinel mcp --config %s --http %s).\n", path, file, addr)
	for _, n := range notes {
		fmt.Fprintln(out, n)
	}
	if err := systemctl(ctx, s.ctl("daemon-reload"), s.ctl("enable", "--now", mcpUnitName)); err != nil {
		fmt.Fprintf(out, "Not started: %v.\nStart it yourself: systemctl %s daemon-reload && systemctl %s enable --now %s\n", err, strings.Join(s.ctl(), " "), strings.Join(s.ctl(), " "), mcpUnitName)
		return nil
	}
	fmt.Fprintf(out, "Enabled and started %s: check it with sentinel mcp status %s.\n", mcpUnitName, s.flag())
	return nil
}

func mcpUninstall(ctx context.Context, out io.Writer, s mcpScope) error {
	path, err := s.unitPath()
	if err != nil {
		return err
	}
	if _, err := os.Lstat(path); errors.Is(err, os.ErrNotExist) {
		fmt.Fprintf(out, "No unit at %s: nothing to uninstall.\n", path)
		return nil
	}
	stopErr := systemctl(ctx, s.ctl("disable", "--now", mcpUnitName))
	if err := os.Remove(path); err != nil {
		return fmt.Errorf("remove the unit %s: %w", path, err)
	}
	fmt.Fprintf(out, "Removed %s (the token file stays).\n", path)
	if stopErr != nil {
		fmt.Fprintf(out, "Not stopped: %v.\nStop it yourself: systemctl %s disable --now %s\n", stopErr, strings.Join(s.ctl(), " "), mcpUnitName)
		return nil
	}
	if err := systemctl(ctx, s.ctl("daemon-reload")); err != nil {
		fmt.Fprintf(out, "Run systemctl %s daemon-reload yourself: %v.\n", strings.Join(s.ctl(), " "), err)
	}
	fmt.Fprintf(out, "Stopped and disabled %s.\n", mcpUnitName)
	return nil
}

func mcpStatus(ctx context.Context, out io.Writer, s mcpScope) error {
	path, err := s.unitPath()
	if err != nil {
		return err
	}
	b, err := os.ReadFile(path)
	if err != nil {
		fmt.Fprintf(out, "unit:    not installed (sentinel mcp install %s writes %s)\n", s.flag(), path)
		return nil
	}
	for _, l := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(l, "ExecStart="); ok {
			fmt.Fprintf(out, "unit:    installed at %s (ExecStart=%s)\n", path, textsafe.Line(v))
		}
	}
	if err := systemctl(ctx, s.ctl("is-active", "--quiet", mcpUnitName)); err != nil {
		fmt.Fprintf(out, "service: not active (%v); see journalctl %s -u %s\n", err, strings.Join(s.ctl(), " "), mcpUnitName)
		return nil
	}
	fmt.Fprintln(out, "service: active")
	return nil
}
