package main

import (
	"errors"

	"github.com/spf13/cobra"
)

// newMCPCmd on Windows: the file tools walk each path one directory at a
// time with openat and device/inode identities, which Windows does not
// have; until they have a Windows walk of the same strength, the command
// refuses rather than serve weaker guards.
func newMCPCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "mcp --config FILE [--http ADDR]",
		Short: "Serve an allowlisted shell and path-gated file tools over MCP (not on Windows yet)",
		RunE: func(*cobra.Command, []string) error {
			return errors.New("sentinel mcp is not available on Windows yet: its file tools need a directory walk by identity that only Linux and macOS have here; run it on Linux or macOS (or in WSL)")
		},
	}
}
