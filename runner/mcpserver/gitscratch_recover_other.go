//go:build !unix

package mcpserver

import "context"

// Commands run in no sandbox here with a scratch object dir to recover.

const scratchPrefix = "sentinel-mcp-objects-"

func (g *gitGuard) recordScratch(string) error { return nil }

func recoverScratch(context.Context) []string { return nil }
