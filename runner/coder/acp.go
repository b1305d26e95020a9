package coder

// ACPGuest is what one agent needs beyond the protocol when `sentinel run
// --coder acp -- PROGRAM ARGS...` runs its program: its entry's ACP.
// runner/acp applies it and knows no agent by name; an ACP agent with no
// entry (or none of these) runs as the protocol alone has it. Each field
// may be nil.
type ACPGuest struct {
	// Argv is the command as it will start, from the one given.
	Argv func(argv []string) []string
	// Env is what it needs on top of HOME; trusted says Contain hid the
	// workspace's own settings from it.
	Env func(argv []string, trusted bool) []string
	// PrepareHome writes its part of the per-run home runHome from the
	// person's home (only read): their logins, their settings made to ask
	// Sentinel first, their MCP servers behind gate (nil: kept off), and
	// whereAmI in its own instructions mechanism. It returns the files the
	// coder must not change and notes on what was left out.
	PrepareHome func(home, runHome, whereAmI string, gate *MCPGate) (protected, notes []string, err error)
	// Contain, after PrepareHome, is the path in the workspace the sandbox
	// must hide so that the workspace can be trusted ("" with a note when
	// it cannot be); contained says the sandbox can hide a path there.
	Contain func(runHome, workspace string, contained bool) (hide, note string)
	// PassEnv are variables of the person's passed into the sandbox when
	// set, beside the model keys every ACP agent gets (acp.KeyEnv).
	PassEnv []string
	// NoReadDelegation says not to offer the agent fs/read_text_file.
	NoReadDelegation bool
}

// MCPGate is how the person's stdio MCP servers reach the run's broker
// (runner/mcpgate's command starts each behind it).
type MCPGate struct {
	Sentinel string // the sentinel binary (readable inside the sandbox)
	Socket   string // the run's broker socket
}
