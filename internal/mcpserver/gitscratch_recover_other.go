//go:build !unix

package mcpserver

import (
	"context"

	"github.com/sentinelhq/sentinel/internal/gitstore"
)

// Commands run in no sandbox here with a scratch object dir to recover.

const scratchPrefix = "sentinel-mcp-objects-"

func (g *gitGuard) recordScratch(string) error { return nil }

func recoverScratch(context.Context, []gitstore.Store) []string { return nil }
