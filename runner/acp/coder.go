package acp

import "github.com/sentinelhq/sentinel/runner/coder"

// PrepareRun is SetRun and Prepare from what every run tells its adapter;
// the notes say which of the person's MCP servers were left out.
func (a *Adapter) PrepareRun(s coder.Setup) (coder.Prepared, error) {
	a.SetRun(RunSetup{Sentinel: s.Sentinel, Socket: s.Socket, Workspace: s.Workspace, Contained: s.Contained})
	n, err := a.Prepare(s.Home, s.StateDir, s.WhereAmI)
	if err != nil {
		return coder.Prepared{}, err
	}
	return coder.Prepared{Needs: n, Notes: a.Notes()}, nil
}

// Transport: an ACP agent speaks JSON-RPC on pipes.
func (a *Adapter) Transport() coder.Transport { return coder.ACP }
