package main

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"syscall"

	"github.com/sentinelhq/sentinel/internal/config"
	"github.com/sentinelhq/sentinel/internal/helperbin"
	"github.com/sentinelhq/sentinel/internal/procgroup"
	"github.com/sentinelhq/sentinel/runner"
	"github.com/sentinelhq/sentinel/runner/agents"
	"github.com/sentinelhq/sentinel/sandbox"
	"github.com/spf13/cobra"
	"golang.org/x/term"
)

func newSandboxCmd() *cobra.Command {
	sb := &cobra.Command{
		Use:   "sandbox",
		Short: "Run commands under the coder's sandbox",
	}
	var (
		workspace, mode, netMode, agent string
		hosts, reads, writes            []string
	)
	run := &cobra.Command{
		Use:   "run [flags] -- CMD [ARG...]",
		Short: "Run any command under the same sandbox a coder gets",
		Long: `Run CMD confined the way a coder is: writes only to the workspace and a
private /tmp, credentials hidden, .git hooks and config read-only, network only
through Sentinel's proxy. Unknown hosts are asked about on the terminal when
stdin is one, and refused otherwise. The exit status is CMD's.

The [sandbox] settings of your config and of the project's
.sentinel/config.toml apply as they do to a run: hidden always, allow_hosts
and readable from the project file only once you trust it (sentinel config
trust). With --agent, CMD gets a fresh home holding copies of that agent's
login and settings, removed afterwards: your real ~/.claude, ~/.codex and the
like are never writable, since their start-up files run code the next time
you start the agent unsandboxed.`,
		Args: wantArgs(1, -1, "which program? give it after --", "sentinel sandbox run -- bash"),
		RunE: func(c *cobra.Command, args []string) error {
			return sandboxRun(args, workspace, agent, sandbox.Mode(mode), sandbox.NetMode(netMode), hosts, reads, writes)
		},
	}
	f := run.Flags()
	f.StringVar(&workspace, "workspace", "", "writable workspace (default: the current directory)")
	f.StringVar(&mode, "sandbox", "auto", "enforcement: auto, ns, bwrap or off")
	f.StringVar(&netMode, "net", "proxy", "network: proxy (through Sentinel's proxy) or none")
	f.StringVar(&agent, "agent", "", "set CMD up for this agent ("+strings.Join(agents.Names(agents.Sandboxable), ", ")+"): a fresh home with copies of its login and settings, and its API key variables")
	f.StringArrayVar(&hosts, "allow-host", nil, "let HOST[:PORT] through the proxy without asking (repeatable)")
	f.StringArrayVar(&reads, "read", nil, "also let the command read PATH (repeatable)")
	f.StringArrayVar(&writes, "write", nil, "also let the command write PATH (repeatable)")
	sb.AddCommand(run)
	return sb
}

func sandboxRun(argv []string, workspace, agent string, mode sandbox.Mode, net sandbox.NetMode, hosts, reads, writes []string) error {
	switch mode {
	case sandbox.ModeAuto, sandbox.ModeNS, sandbox.ModeBwrap, sandbox.ModeOff:
	default:
		return usageError{fmt.Errorf("--sandbox %s: unknown; use auto, ns, bwrap or off", mode)}
	}
	if net != sandbox.NetProxy && net != sandbox.NetNone {
		return usageError{fmt.Errorf("--net %s: unknown; use proxy or none", net)}
	}
	if workspace == "" {
		wd, err := os.Getwd()
		if err != nil {
			return err
		}
		workspace = wd
	}
	abs := func(ps []string) ([]string, error) {
		var out []string
		for _, p := range ps {
			a, err := filepath.Abs(p)
			if err != nil {
				return nil, err
			}
			out = append(out, a)
		}
		return out, nil
	}
	ws, err := filepath.Abs(workspace)
	if err != nil {
		return usageError{fmt.Errorf("--workspace %s: %w", workspace, err)}
	}
	// The person's git identity and the project's root each start git,
	// and DefaultProfile may start go: at the same time, not in turn.
	var (
		gitEnv  []string
		cfgRoot string
		lookups sync.WaitGroup
	)
	lookups.Go(func() { gitEnv = sandbox.GitIdentityEnv(ws) })
	lookups.Go(func() { cfgRoot = sandboxConfigRoot(ws) })
	lookups.Go(func() { helperbin.Find() }) // Prepare's, made meanwhile
	home, _ := os.UserHomeDir()
	p := sandbox.DefaultProfile(ws, home)
	lookups.Wait()
	p.Env = append(p.Env, gitEnv...)
	if agent != "" {
		a := agents.Lookup(agent)
		if a == nil || !agents.Sandboxable(a) {
			return usageError{fmt.Errorf("--agent %s: unknown; use %s", agent, agents.OrList(agents.Names(agents.Sandboxable)))}
		}
		runHome, err := agentRunHome()
		if err != nil {
			return err
		}
		defer os.RemoveAll(runHome)
		if p, err = p.WithAgent(a.Home, home, runHome); err != nil {
			return err
		}
		kept, err := sandboxAgentHistory(agent, home, runHome, sandboxDir(ws))
		if err != nil {
			return err
		}
		defer writeBackHistory(kept) // before runHome goes
	}
	runner.SeedProjectGoCache(context.Background(), ws) // a new project's Go cache starts from the signed seed
	if p, err = p.WithCaches(ws); err != nil {
		return err
	}
	p.Net = net
	p.AllowHosts = slices.Clone(hosts)
	if cfgRoot != "" { // else Prepare says what is wrong with the workspace
		if err := applySandboxConfig(&p, cfgRoot); err != nil {
			return err
		}
	}
	if r, err := abs(reads); err == nil {
		p.Readable = append(p.Readable, r...)
	}
	if w, err := abs(writes); err == nil {
		p.Writable = append(p.Writable, w...)
	}
	var sbx *sandbox.Sandbox
	asker := terminalAsker(func(h string, port int) {
		if sbx != nil {
			sbx.AllowHost(h, port)
		}
	})
	sbx, err = sandbox.Prepare(p, sandbox.Options{Mode: mode, Asker: asker,
		OnExecDeny: func(d sandbox.ExecDenial) { fmt.Fprintln(os.Stderr, "sentinel: "+d.Line()) }})
	if err != nil {
		return err
	}
	defer sbx.Close()
	dir := sandboxDir(ws)
	// The command gets keyboard signals from the terminal itself. Ignored
	// before the command is built, so bwrap starts with them ignored
	// without a shell in front (Sandbox.Command).
	signal.Ignore(syscall.SIGINT, syscall.SIGQUIT)
	cmd, err := sbx.Command(context.Background(), dir, argv...)
	if err != nil {
		return err
	}
	cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, os.Stdout, os.Stderr
	if err := cmd.Run(); err != nil {
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			code := ee.ExitCode()
			if code < 0 {
				if ws, ok := ee.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
					code = 128 + int(ws.Signal())
				} else {
					code = 1
				}
			}
			return exitError{code: code}
		}
		return fmt.Errorf("run %s: %w", argv[0], err)
	}
	return nil
}

// sandboxConfigRoot is the project whose config applies to a workspace:
// the top of the git work tree it is in, else the workspace itself ("" when
// the workspace is not a directory). It is configRoot's answer with one
// git question instead of three (FindProject also checks for HEAD and
// the git dir, which only a run needs).
func sandboxConfigRoot(ws string) string {
	if st, err := os.Stat(ws); err != nil || !st.IsDir() {
		return ""
	}
	if top := runner.TopLevel(context.Background(), ws); top != "" {
		return top
	}
	return ws
}

// applySandboxConfig adds the [sandbox] settings of the user's config and of
// the project config at root to p, as a run does (with the user config's
// [service] denied_executables): hidden always,
// readable and allow_hosts from the project file only when it is trusted
// (with one line on stderr saying what was left out).
func applySandboxConfig(p *sandbox.Profile, root string) error {
	cfg, projCfg, err := config.LoadProject(root)
	if err != nil {
		return err
	}
	if w := projCfg.Warning(); w != "" {
		fmt.Fprintln(os.Stderr, "sentinel: "+w)
	}
	p.Hidden = append(p.Hidden, cfg.Sandbox.Hidden...)
	p.Readable = append(p.Readable, cfg.Sandbox.Readable...)
	p.AllowHosts = append(p.AllowHosts, cfg.Sandbox.AllowHosts...)
	p.DeniedExecutables = append(p.DeniedExecutables, cfg.Service.DeniedExecutables...)
	return nil
}

// agentRunHome makes the per-run home `sandbox run --agent` gives the
// command, in Sentinel's cache directory (not under /tmp, which is private
// inside the sandbox). It holds copies of the agent's login, so the homes of
// earlier runs whose sentinel is gone (killed before it could clean up) are
// removed first.
func agentRunHome() (string, error) {
	base, err := os.UserCacheDir()
	if err != nil {
		base = os.TempDir()
	}
	dir := filepath.Join(base, "sentinel", "sandbox-homes")
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return "", fmt.Errorf("make the sandbox's home: %w", err)
	}
	ents, _ := os.ReadDir(dir)
	for _, e := range ents {
		var pid int
		if _, err := fmt.Sscanf(e.Name(), "home-%d-", &pid); err == nil && pid > 0 &&
			!procgroup.Alive(pid) {
			os.RemoveAll(filepath.Join(dir, e.Name()))
		}
	}
	h, err := os.MkdirTemp(dir, fmt.Sprintf("home-%d-", os.Getpid()))
	if err != nil {
		return "", fmt.Errorf("make the sandbox's home: %w", err)
	}
	return h, nil
}

// terminalAsker asks about unknown hosts on the controlling terminal when
// stdin is one; otherwise every unknown host is refused.
func terminalAsker(remember func(string, int)) sandbox.HostAsker {
	var mu sync.Mutex
	return func(ctx context.Context, host string, port int) (bool, string) {
		if !term.IsTerminal(int(os.Stdin.Fd())) {
			return false, "not in the allowlist (no terminal to ask; use --allow-host)"
		}
		mu.Lock()
		defer mu.Unlock()
		tty, err := os.OpenFile("/dev/tty", os.O_RDWR, 0)
		if err != nil {
			return false, "not in the allowlist (cannot open the terminal to ask)"
		}
		defer tty.Close()
		fmt.Fprintf(tty, "\r\nsentinel: the command wants to reach %s:%d — [o]nce, [r]emember, [d]eny? ", host, port)
		line, _ := bufio.NewReader(tty).ReadString('\n')
		switch strings.ToLower(strings.TrimSpace(line)) {
		case "o", "once":
			return true, ""
		case "r", "remember":
			remember(host, port)
			return true, ""
		}
		return false, "denied on the terminal"
	}
}

// sandboxDir is where the command starts: the current directory when it
// is inside the workspace, else the workspace.
func sandboxDir(ws string) string {
	wd, _ := os.Getwd()
	if rel, err := filepath.Rel(ws, wd); err == nil && !strings.HasPrefix(rel, "..") {
		return wd
	}
	return ws
}
