package sandbox

import (
	"context"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"

	"github.com/sentinelhq/sentinel/internal/helperbin"
)

// InsideProxyPort is the loopback port inside the network namespace where the
// helper forwards connections to Sentinel's proxy. HTTP(S)_PROXY point here.
const InsideProxyPort = 3128

// Sandbox is a prepared profile that can start commands.
type Sandbox struct {
	p        Profile
	mode     Mode
	helper   string // sentinel-helper or the sentinel binary, re-executed as the helper
	base     string // private state: tmp/ and proxy/proxy.sock
	proxy    *Proxy
	sock     string
	sockDir  *os.File // passed to the helper as fd 3 so it can reach the proxy
	shortDir string   // the proxy's directory when base is too deep for a socket (sockdir.go)
	bwrap    string
	tcpProxy string       // darwin: the proxy's loopback address
	denied   []deniedFile // files refused at exec time (execdeny.go)
	// The exec watcher's refusals (execdeny.go): read end, write end
	// passed to each helper as fd 4, and /dev/null for fd 3 without a proxy.
	reportR, reportW, devNull *os.File
	reportDone                chan struct{} // closed when the reports are all read
	// The sandbox's pids cgroup (pids_linux.go) and its cgroup.procs,
	// passed to each helper as fd 5; pidsNote says how processes are bounded.
	pidsCgroup string
	pidsProcs  *os.File
	pidsNote   string
}

// Prepare checks that the machine can enforce p under o.Mode and sets up what
// the commands will share (temp dir, proxy). It refuses rather than weakens:
// if something the profile asks for cannot be enforced here, the error names
// it and the fix.
func Prepare(p Profile, o Options) (*Sandbox, error) {
	if o.Mode == "" {
		o.Mode = ModeAuto
	}
	switch o.Mode {
	case ModeAuto, ModeNS, ModeBwrap, ModeOff:
	default:
		return nil, fmt.Errorf("sandbox mode %q: unknown; use auto, ns, bwrap or off", o.Mode)
	}
	if err := Supported(o.Mode); err != nil {
		return nil, err
	}
	np, err := p.normalize()
	if err != nil {
		return nil, err
	}
	if np.Net == NetHost && o.Mode != ModeOff {
		return nil, fmt.Errorf("sandbox: network mode host is only possible with --sandbox off")
	}
	s := &Sandbox{p: np, helper: o.Helper}
	if s.helper == "" {
		// sentinel-helper beside this binary when it is there (a bare Go
		// program's start per command), else this binary itself.
		if s.helper, err = helperbin.Path(); err != nil {
			return nil, fmt.Errorf("sandbox: cannot find the sentinel binary to re-execute: %w", err)
		}
	}
	if s.mode, err = s.pickBackend(o.Mode); err != nil {
		return nil, err
	}
	if len(s.p.Places) > 0 && s.mode != ModeOff && !PlacesEnforced(s.mode) {
		return nil, fmt.Errorf("sandbox: the %s backend cannot show files at chosen paths (places); leave them out on this system", s.mode)
	}
	if s.base, err = os.MkdirTemp("", "sentinel-sbx-"); err != nil {
		return nil, fmt.Errorf("sandbox: private state dir: %w", err)
	}
	if err := os.Mkdir(filepath.Join(s.base, "root"), 0o700); err != nil {
		s.Close()
		return nil, fmt.Errorf("sandbox: private state dir: %w", err)
	}
	if err := os.WriteFile(filepath.Join(s.base, "empty"), nil, 0o444); err != nil {
		s.Close()
		return nil, fmt.Errorf("sandbox: private state dir: %w", err)
	}
	if s.p.TempDir == "" {
		s.p.TempDir = filepath.Join(s.base, "tmp")
		if err := os.Mkdir(s.p.TempDir, 0o700); err != nil {
			s.Close()
			return nil, fmt.Errorf("sandbox: private temp dir: %w", err)
		}
	}
	if s.denied, err = s.resolveDenied(); err != nil {
		s.Close()
		return nil, err
	}
	if len(s.denied) > 0 {
		if err := s.startExecReports(o.OnExecDeny); err != nil {
			s.Close()
			return nil, err
		}
	}
	if s.p.Overlay != nil {
		if s.mode == ModeOff || runtime.GOOS != "linux" {
			s.Close()
			return nil, fmt.Errorf("sandbox: an overlay workspace needs a Linux sandbox backend; make a cloned workspace instead")
		}
	}
	s.limitPids()
	if s.p.Net == NetProxy && s.mode != ModeOff {
		if err := s.startProxy(o.Asker, o.OnDeny); err != nil {
			s.Close()
			return nil, err
		}
	}
	return s, nil
}

func (s *Sandbox) startProxy(asker HostAsker, onDeny func(Denial)) error {
	dir, err := s.makeProxyDir()
	if err != nil {
		return fmt.Errorf("sandbox proxy: %w", err)
	}
	px, err := NewProxy(s.p.AllowHosts, asker)
	if err != nil {
		return err
	}
	px.OnDeny = onDeny
	s.sock = filepath.Join(dir, "proxy.sock")
	ln, err := net.Listen("unix", s.sock)
	if err != nil {
		return fmt.Errorf("sandbox proxy: listen on %s: %w", s.sock, err)
	}
	s.proxy = px
	go px.Serve(ln)
	if s.sockDir, err = os.Open(dir); err != nil {
		return fmt.Errorf("sandbox proxy: %w", err)
	}
	return nil
}

// Command returns a command that runs argv inside the sandbox in dir.
//
// The returned cmd carries the SysProcAttr the backend needs (namespace clone
// flags, uid/gid maps, parent-death signal) and ExtraFiles[0] (the helper's
// way to the proxy). A caller may set Setsid, Setctty, Ctty, Foreground,
// Pgid and Setpgid on the existing cmd.SysProcAttr and may set Stdin, Stdout
// and Stderr, but must not replace SysProcAttr, Env, ExtraFiles or Path.
// A caller that ignores SIGINT and SIGQUIT when it calls Command must keep
// ignoring them until the command has started.
func (s *Sandbox) Command(ctx context.Context, dir string, argv ...string) (*exec.Cmd, error) {
	if len(argv) == 0 {
		return nil, fmt.Errorf("sandbox: no command to run")
	}
	if dir == "" {
		dir = s.p.Workspace
	}
	if s.mode == ModeOff {
		c := exec.CommandContext(ctx, argv[0], argv[1:]...)
		c.Dir = dir
		c.Env = s.env(s.p.TempDir)
		return c, nil
	}
	return s.command(ctx, dir, argv)
}

// Mode is the effective backend.
func (s *Sandbox) Mode() Mode { return s.mode }

// Profile is the normalized profile the sandbox enforces.
func (s *Sandbox) Profile() Profile { return s.p }

// ProxySocket is the unix socket the egress proxy listens on ("" without one).
func (s *Sandbox) ProxySocket() string { return s.sock }

// AllowHost lets host:port through the proxy for the rest of the run (the
// person chose "remember"). It is still refused if it resolves to an
// internal address.
func (s *Sandbox) AllowHost(host string, port int) {
	if s.proxy != nil {
		s.proxy.AllowHost(host, port)
	}
}

// Describe is a short label for the status bar and the journal.
func (s *Sandbox) Describe() string {
	if s.mode == ModeOff {
		return "sandbox OFF — the coder can do anything you can"
	}
	net := "network via proxy"
	if s.p.Net == NetNone {
		net = "no network"
	}
	return fmt.Sprintf("sandbox %s: writes only to %s and a private /tmp, %s", s.mode, s.p.Workspace, net)
}

// Close stops the proxy and removes the private state and temp dir.
func (s *Sandbox) Close() error {
	if s.proxy != nil {
		s.proxy.Close()
	}
	if s.sockDir != nil {
		s.sockDir.Close()
	}
	s.closeExecReports()
	s.removePids()
	if s.shortDir != "" {
		_ = os.RemoveAll(s.shortDir)
	}
	if s.base == "" {
		return nil
	}
	return os.RemoveAll(s.base)
}

// allowedEnv are the variables passed from Sentinel's environment to every
// sandboxed process; everything else must be named in Profile.PassEnv.
var allowedEnv = []string{
	"PATH", "HOME", "USER", "LOGNAME", "SHELL", "TERM", "COLORTERM", "LANG", "LANGUAGE",
	"TZ", "NO_COLOR", "FORCE_COLOR", "COLUMNS", "LINES", "EDITOR", "VISUAL",
}

// env rebuilds the environment from the allowlist, the agent's named
// variables and the profile's additions. Sentinel's own variables never pass.
func (s *Sandbox) env(tmp string) []string { return s.envWithProxy(tmp, InsideProxyPort) }

func (s *Sandbox) envWithProxy(tmp string, port int) []string {
	keep := map[string]bool{}
	for _, k := range allowedEnv {
		keep[k] = true
	}
	for _, k := range s.p.PassEnv {
		keep[k] = true
	}
	var out []string
	for _, kv := range os.Environ() {
		k, _, _ := strings.Cut(kv, "=")
		if strings.HasPrefix(k, "SENTINEL_") {
			continue
		}
		if keep[k] || strings.HasPrefix(k, "LC_") {
			out = append(out, kv)
		}
	}
	out = append(out, "TMPDIR="+tmp)
	if s.p.Net == NetProxy && s.mode != ModeOff && port > 0 {
		u := fmt.Sprintf("http://127.0.0.1:%d", port)
		out = append(out, "HTTP_PROXY="+u, "HTTPS_PROXY="+u, "http_proxy="+u, "https_proxy="+u,
			"ALL_PROXY="+u, "all_proxy="+u, "NO_PROXY=", "no_proxy=")
	}
	return append(out, s.p.Env...)
}
