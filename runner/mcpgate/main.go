package mcpgate

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"os/signal"
	"syscall"

	"github.com/sentinelhq/sentinel/approvals"
	"github.com/sentinelhq/sentinel/internal/agentutil"
)

// Arg is the hidden subcommand the agent runs in place of an MCP server:
// `sentinel mcp-gate --server NAME [--socket PATH] [--adapter NAME] -- CMD [ARG...]`.
const Arg = "mcp-gate"

// Command is the argv that runs server argv behind the gate of the sentinel
// binary exe, asking the broker at socket.
func Command(exe, socket, adapter, server string, argv []string) []string {
	return append([]string{exe, Arg, "--server", server, "--socket", socket, "--adapter", adapter, "--"}, argv...)
}

// Main runs the gate with args (those after Arg) on this process's stdin
// and stdout and returns the exit status: the server's, or 2 when the gate
// cannot start it.
func Main(args []string) int {
	fs := flag.NewFlagSet("sentinel "+Arg, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	server := fs.String("server", "", "the MCP server's name")
	socket := fs.String("socket", os.Getenv(approvals.EnvSocket), "the run's broker socket")
	adapter := fs.String("adapter", "mcp-gate", "the agent's name in broker requests")
	fail := func(msg string) int {
		fmt.Fprintln(os.Stderr, "sentinel "+Arg+": "+msg)
		return 2
	}
	if err := fs.Parse(args); err != nil {
		return fail(err.Error() + " (usage: sentinel " + Arg + " --server NAME [--socket PATH] -- CMD [ARG...])")
	}
	argv := fs.Args()
	if *server == "" || len(argv) == 0 {
		return fail("name the server and its command: sentinel " + Arg + " --server NAME -- CMD [ARG...]")
	}
	if *socket == "" {
		return fail("no Sentinel run to ask: give --socket or set " + approvals.EnvSocket)
	}
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Stderr = os.Stderr
	in, err := cmd.StdinPipe()
	if err != nil {
		return fail(err.Error())
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		return fail(err.Error())
	}
	if err := cmd.Start(); err != nil {
		return fail(fmt.Sprintf("start the MCP server %s: %v", *server, err))
	}
	sigs := make(chan os.Signal, 1)
	signal.Notify(sigs, syscall.SIGTERM, syscall.SIGINT, syscall.SIGHUP)
	go func() {
		for s := range sigs {
			_ = cmd.Process.Signal(s)
		}
	}()
	wd, _ := os.Getwd()
	g := &Gate{Server: *server, Adapter: *adapter, Cwd: wd, Log: os.Stderr,
		Ask: func(ctx context.Context, req approvals.Request) approvals.Decision {
			d, _ := approvals.AskOnce(ctx, *socket, req) // any failure is a deny saying why
			return d
		}}
	if err := g.Run(context.Background(), os.Stdin, os.Stdout, in, out); err != nil {
		fmt.Fprintln(os.Stderr, "sentinel "+Arg+" "+*server+": "+err.Error())
		_ = cmd.Process.Kill()
	}
	return agentutil.ExitStatus(cmd.Wait())
}
