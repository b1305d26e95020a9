package acp

import (
	"github.com/sentinelhq/sentinel/runner/coder"
)

// The person's own MCP servers under Sentinel.
//
// An agent that does not ask before an MCP tool call (opencode 1.18.33:
// its permission settings do not cover MCP tools, upstream
// anomalyco/opencode#6892), or whose question does not name the tool, has
// its entry (its PrepareHome, given the run's gate) start each of the
// person's stdio servers behind Sentinel's MCP gate (runner/mcpgate): `sentinel mcp-gate
// --server NAME -- <their command>`, which asks the run's broker before
// every tools/call and answers a denied one itself. Remote (http/sse)
// servers are kept off: their calls would leave through the sandbox's
// proxy with no gate to ask about each call, and a system line says so.
// Without a gate (no broker socket or sentinel binary known) every server
// is kept off.
//
// What one agent needs beyond that is its entry's (coder.ACPGuest):
// Gemini CLI's MCP servers are in runner/geminicli (acp_mcp.go).

// RunSetup is what the run tells the adapter before Prepare.
type RunSetup struct {
	Sentinel  string // the sentinel binary (readable inside the sandbox)
	Socket    string // the run's broker socket
	Workspace string // the run's workspace
	// Contained says the sandbox enforces Needs.Hidden inside the
	// workspace (sandbox.PlacesEnforced: the Linux sandbox).
	Contained bool
}

// MCPGate is how the person's stdio MCP servers reach the run's broker.
type MCPGate = coder.MCPGate

// SetRun tells Prepare about the run: the person's stdio MCP servers start
// behind the gate, and the guest's workspace can be trusted (Contained).
// Without it, the person's MCP servers are kept off.
func (a *Adapter) SetRun(s RunSetup) {
	a.run = s
	if s.Sentinel != "" && s.Socket != "" {
		a.gate = &MCPGate{Sentinel: s.Sentinel, Socket: s.Socket}
	}
}

// Notes are what Prepare left out of the person's setup and why, for the
// run's journal.
func (a *Adapter) Notes() []string { return a.notes }
