package main

import (
	"context"
	"fmt"
	"net"
	"os"
	"os/signal"
	"strconv"
	"syscall"

	"github.com/spf13/cobra"

	"github.com/sentinelhq/sentinel/internal/config"
	"github.com/sentinelhq/sentinel/internal/mcpserver"
	"github.com/sentinelhq/sentinel/runner/checkpoint"
	"github.com/sentinelhq/sentinel/runner/service"
)

func newMCPCmd() *cobra.Command {
	var configFile, httpAddr string
	cmd := &cobra.Command{
		Use:   "mcp --config FILE [--http ADDR]",
		Short: "Serve an allowlisted shell and path-gated file tools over MCP",
		Long: `Serve MCP (stdio by default, streamable HTTP with --http) so any MCP client's
model can run only the commands the config allows, touch only the paths it
lists, and have every call recorded in an audit journal (read it with
'sentinel show FILE'). Commands run inside Sentinel's sandbox; on Windows,
which has no sandbox backend yet, exec refuses and the file tools work.

Over HTTP nothing is served without a bearer token: token or token_env in the
config, or (on loopback) one made up at start and printed to stderr with how
clients pass it. Any address beyond loopback needs a configured token. A
session idle for ` + mcpserver.HTTPSessionIdle.String() + ` is closed, and at most ` + strconv.Itoa(mcpserver.MaxHTTPSessions) + ` are open at once.
` + mcpserver.TLSAdvice + `.

With an [oauth] table (public_url), remote clients such as claude.ai and
ChatGPT attach with OAuth at PUBLIC_URL/mcp: each new client's consent page
asks for a one-time code this command prints; 'sentinel mcp clients' lists
and revokes them. With [oauth] issuer = "https://..." (and optionally audience,
jwks_url) the tokens come from that identity provider instead: JWT access
tokens (typ at+jwt; accept_any_typ = true for an issuer that sets none)
checked against its published keys, scopes tool:NAME. [tls] cert and
key serve HTTPS directly.`,
		Args: noArgs,
		RunE: func(c *cobra.Command, _ []string) error {
			if configFile == "" {
				return usageError{fmt.Errorf("--config FILE is required (see README: sentinel mcp)")}
			}
			cfg, err := mcpserver.LoadConfig(configFile)
			if err != nil {
				return err
			}
			token, err := cfg.ResolveToken(os.Getenv)
			if err != nil {
				return err
			}
			if httpAddr != "" {
				if err := cfg.CheckTokenFile(); err != nil {
					return err
				}
				if err := cfg.CheckHTTP(httpAddr, token); err != nil {
					return usageError{err}
				}
				if token == "" && !cfg.OAuthEnabled() {
					if token, err = mcpserver.NewToken(); err != nil {
						return err
					}
					fmt.Fprint(os.Stderr, mcpserver.TokenAdvice(cfg.File, token))
				}
			}
			transport := "stdio"
			if httpAddr != "" {
				transport = "http"
			}
			user, err := config.Load("") // [exec] checkpoint_* bound the points before writing calls
			if err != nil {
				return err
			}
			rec := newMCPRecord() // the session as a run the user service shows (mcp_record.go)
			srv, err := mcpserver.New(cfg, mcpserver.Options{Transport: transport, Version: version, Danger: rec.danger,
				Checkpoint: checkpoint.Limits{MaxFileBytes: int64(user.Exec.CheckpointMaxFileMiB) << 20, MaxTotalBytes: int64(user.Exec.CheckpointMaxTotalMiB) << 20}})
			if err != nil {
				return err
			}
			rec.start(srv.RunID(), srv.Project(), service.Registrar{Mode: "mcp"})
			defer rec.end() // after Close: its end-of-session summary is told first
			defer srv.Close()
			ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
			defer stop()
			fmt.Fprintf(os.Stderr, "sentinel mcp: audit journal %s\n", srv.AuditPath())
			hup := make(chan os.Signal, 1)
			signal.Notify(hup, syscall.SIGHUP)
			defer signal.Stop(hup)
			go srv.WatchConfig(ctx, hup) // a changed config (or SIGHUP) applies to the next call
			if httpAddr != "" {
				return srv.ServeHTTP(ctx, httpAddr, token, func(a net.Addr) {
					fmt.Fprintf(os.Stderr, "sentinel mcp: serving streamable HTTP on %s/ (clients connect to %s)\n", a, srv.EndpointURL(a.String()))
				})
			}
			return srv.ServeStdio(ctx, os.Stdin, os.Stdout)
		},
	}
	cmd.AddCommand(append([]*cobra.Command{newMCPInitCmd(), newMCPClientsCmd(), newMCPSudoHelperCmd()}, newMCPServiceCmds()...)...)
	cmd.Flags().StringVar(&configFile, "config", "", "the server's TOML config (required)")
	cmd.Flags().StringVar(&httpAddr, "http", "", "serve streamable HTTP on HOST:PORT instead of stdio")
	return cmd
}
