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
	"strings"
	"sync"
	"syscall"

	"github.com/spf13/cobra"
	"golang.org/x/term"

	"github.com/sentinelhq/sentinel/sandbox"
)

func init() {
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
stdin is one, and refused otherwise. The exit status is CMD's.`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(c *cobra.Command, args []string) error {
			return sandboxRun(args, workspace, agent, sandbox.Mode(mode), sandbox.NetMode(netMode), hosts, reads, writes)
		},
	}
	f := run.Flags()
	f.StringVar(&workspace, "workspace", "", "writable workspace (default: the current directory)")
	f.StringVar(&mode, "sandbox", "auto", "enforcement: auto, ns, bwrap or off")
	f.StringVar(&netMode, "net", "proxy", "network: proxy (through Sentinel's proxy) or none")
	f.StringVar(&agent, "agent", "", "also grant what this agent needs (claude, codex, gemini, opencode, crush): its state dirs and API key variables")
	f.StringArrayVar(&hosts, "allow-host", nil, "let HOST[:PORT] through the proxy without asking (repeatable)")
	f.StringArrayVar(&reads, "read", nil, "also let the command read PATH (repeatable)")
	f.StringArrayVar(&writes, "write", nil, "also let the command write PATH (repeatable)")
	sb.AddCommand(run)
	root.AddCommand(sb)
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
	home, _ := os.UserHomeDir()
	p := sandbox.DefaultProfile(ws, home)
	p.Env = append(p.Env, sandbox.GitIdentityEnv(ws)...)
	if agent != "" {
		if _, ok := sandbox.KnownAgents[agent]; !ok {
			return usageError{fmt.Errorf("--agent %s: unknown; use claude, codex, gemini, opencode or crush", agent)}
		}
		p = p.WithAgent(agent, home)
	}
	if p, err = p.WithCaches(ws); err != nil {
		return err
	}
	p.Net = net
	p.AllowHosts = hosts
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
	sbx, err = sandbox.Prepare(p, sandbox.Options{Mode: mode, Asker: asker})
	if err != nil {
		return err
	}
	defer sbx.Close()
	wd, _ := os.Getwd()
	dir := ws
	if rel, err := filepath.Rel(ws, wd); err == nil && !strings.HasPrefix(rel, "..") {
		dir = wd
	}
	cmd, err := sbx.Command(context.Background(), dir, argv...)
	if err != nil {
		return err
	}
	cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, os.Stdout, os.Stderr
	// The command gets keyboard signals from the terminal itself.
	signal.Ignore(syscall.SIGINT, syscall.SIGQUIT)
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
