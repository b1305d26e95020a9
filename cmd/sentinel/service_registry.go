package main

import (
	"context"
	"fmt"
	"time"

	"github.com/sentinelhq/sentinel/internal/config"
	"github.com/sentinelhq/sentinel/internal/journal"
	"github.com/sentinelhq/sentinel/internal/servicewire"
	"github.com/sentinelhq/sentinel/runner/service"
)

// mountRegistry mounts the registry of runs and agents, a part of the user
// service (every run of this binary registers with it when it is up: main
// sets the runner's default registrar): its ops, and the scanner with the
// machine's policy ([service] in the user config); it stops with ctx.
func mountRegistry(ctx context.Context, mux *servicewire.Mux, cfg config.Config) error {
	grace, err := serviceDuration(cfg.Service.Grace, service.DefaultGrace)
	if err != nil {
		return fmt.Errorf("[service] grace: %w", err)
	}
	scan, err := serviceDuration(cfg.Service.ScanInterval, service.DefaultScanInterval)
	if err != nil {
		return fmt.Errorf("[service] scan_interval: %w", err)
	}
	path, err := service.JournalPath()
	if err != nil {
		return err
	}
	j, err := journal.Open(path, "service")
	if err != nil {
		return fmt.Errorf("open the service journal: %w", err)
	}
	s := service.New(service.Options{RequireLauncher: cfg.Service.RequireLauncher, AllowedApps: cfg.Service.AllowedApps,
		Grace: grace, ScanInterval: scan, Journal: j})
	s.Mount(mux)
	serviceRunning.Add(1)
	go func() {
		defer serviceRunning.Done()
		s.Run(ctx)
		_ = j.Close() // the service is stopping; nothing is left to report it to
	}()
	return nil
}

func serviceDuration(s string, def time.Duration) (time.Duration, error) {
	if s == "" {
		return def, nil
	}
	d, err := time.ParseDuration(s)
	if err != nil || d <= 0 {
		return 0, fmt.Errorf("%q: want a positive duration such as 5s", s)
	}
	return d, nil
}
