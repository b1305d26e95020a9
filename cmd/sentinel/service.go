package main

import (
	"context"
	"fmt"
	"os"
	"os/signal"
	"sync"
	"syscall"

	"github.com/spf13/cobra"

	"github.com/sentinelhq/sentinel/internal/config"
	"github.com/sentinelhq/sentinel/internal/servicewire"
)

// newServiceCmd builds `sentinel service` with its unit commands (service_unit.go).
func newServiceCmd() *cobra.Command {
	var listen string
	cmd := &cobra.Command{
		Use:   "service",
		Short: "Run the user service: the registry of this machine's runs and the approval queue",
		Long: `sentinel service runs the user service in the foreground (for tests, tmux or a
unit manager). It keeps the registry of this machine's runs, finds agents
started outside Sentinel, and holds the approval queue that sentinel queue
and sentinel console answer. It listens on a socket only this user can reach
($XDG_RUNTIME_DIR/sentinel/service.sock).`,
		Args: noArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			cfg, err := config.Load("")
			if err != nil {
				return err
			}
			if listen != "" {
				cfg.Service.Web = listen // the page (service_web.go)
			}
			path, err := servicewire.SocketPath()
			if err != nil {
				return err
			}
			ln, err := servicewire.Listen(path)
			if err != nil {
				return err
			}
			ctx, stop := signal.NotifyContext(cmd.Context(), os.Interrupt, syscall.SIGTERM)
			defer stop()
			mux := servicewire.NewMux()
			if err := mountService(ctx, mux, cfg); err != nil {
				ln.Close()
				return err
			}
			fmt.Fprintf(cmd.ErrOrStderr(), "sentinel service: listening on %s\n", path)
			err = servicewire.Serve(ctx, ln, mux)
			serviceRunning.Wait() // parts still running finish (their journals close) before the process ends
			return err
		},
	}
	cmd.Flags().StringVar(&listen, "listen", "", "where the web page listens: HOST:PORT (default 127.0.0.1:8787), or off")
	cmd.AddCommand(serviceUnitCmds()...)
	cmd.AddCommand(serviceWebCmds()...)
	return cmd
}

// mountService registers every op the service answers; each part mounts
// its own: the approval queue (service_queue.go), the registry of runs and
// agents (service_registry.go).
func mountService(ctx context.Context, mux *servicewire.Mux, cfg config.Config) error {
	for _, mount := range []func(context.Context, *servicewire.Mux, config.Config) error{mountQueue, mountRegistry} {
		if err := mount(ctx, mux, cfg); err != nil {
			return err
		}
	}
	return nil
}

// serviceRunning counts the parts' goroutines that must end before the
// service's process does; they stop when the mount's ctx ends.
var serviceRunning sync.WaitGroup
