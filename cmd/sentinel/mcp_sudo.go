package main

import (
	"context"
	"fmt"
	"os"
	"os/signal"
	"os/user"
	"syscall"

	"github.com/spf13/cobra"

	"github.com/sentinelhq/sentinel/internal/mcpserver"
	"github.com/sentinelhq/sentinel/internal/mcpserver/sudoedit"
)

// mcpSudoNote is what mcp install says when the config has [sudo] files.
func mcpSudoNote(exe string) string {
	name := "USER"
	if u, err := user.Current(); err == nil {
		name = u.Username
	}
	return fmt.Sprintf("The [sudo] files are edited through a root helper the service cannot start itself: read its units and install steps with\n  %s mcp sudo-helper --units %s", exe, name)
}

func newMCPSudoHelperCmd() *cobra.Command {
	var config, socket, units string
	cmd := &cobra.Command{
		Use:   "sudo-helper [--config FILE] [--socket PATH] | --units USER",
		Short: "The root helper through which the MCP service edits listed root-owned files",
		Long: `The MCP service runs with NoNewPrivileges and can never sudo. This small root
helper, started by a systemd socket unit, answers only the service's user
(checked by the kernel's peer credentials) and reads or replaces only the files
its root-owned config lists (` + sudoedit.DefaultConfig + `): no link on the
way, one hard link, a backup first, the content validated, replaced atomically
with its owner and mode, one audit line per request. The MCP server's edit tool
sends the paths its own [sudo] files names here.

--units USER prints the units, an example config and the commands to install
them for the MCP service running as USER.`,
		Args: noArgs,
		RunE: func(c *cobra.Command, _ []string) error {
			out := c.OutOrStdout()
			if units != "" {
				exe, err := os.Executable()
				if err != nil {
					return err
				}
				sock, svc := sudoedit.Units(exe, units, config, socket)
				fmt.Fprintf(out, "# /etc/systemd/system/%s\n%s\n# /etc/systemd/system/%s\n%s\n# %s\n%s\n%s", sudoedit.SocketUnit, sock, sudoedit.ServiceUnit, svc,
					config, sudoedit.Example(units), sudoedit.InstallSteps(config))
				return nil
			}
			if os.Geteuid() != 0 {
				return fmt.Errorf("sentinel mcp sudo-helper runs as root (from %s); print its units with --units USER", sudoedit.SocketUnit)
			}
			cfg, err := sudoedit.LoadConfig(config)
			if err != nil {
				return err
			}
			srv, err := sudoedit.NewServer(cfg, mcpserver.CheckContent)
			if err != nil {
				return err
			}
			ln, err := sudoedit.Listen(socket, cfg.UID)
			if err != nil {
				return fmt.Errorf("sudo-helper socket %s: %w", socket, err)
			}
			ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
			defer stop()
			go func() { <-ctx.Done(); ln.Close() }()
			fmt.Fprintf(os.Stderr, "sentinel mcp sudo-helper: answering uid %d (%s) on %s for %d files listed in %s\n", cfg.UID, cfg.User, ln.Addr(), len(cfg.Files), cfg.File)
			return srv.Serve(ln)
		},
	}
	cmd.Flags().StringVar(&config, "config", sudoedit.DefaultConfig, "the helper's root-owned config")
	cmd.Flags().StringVar(&socket, "socket", sudoedit.DefaultSocket, "the socket to listen on when systemd passes none")
	cmd.Flags().StringVar(&units, "units", "", "print the systemd units and install steps for the MCP service's USER, and exit")
	return cmd
}
