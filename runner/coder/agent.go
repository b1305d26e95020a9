package coder

import "github.com/sentinelhq/sentinel/internal/agentutil"

// Agent is the whole of one coding agent as Sentinel knows it: how to
// recognise its program, how to install it, what it needs of the person's
// home, how its commits are credited, its hook dialect, its shim, and the
// adapters `sentinel run --coder` and `sentinel exec` start it with. Each
// agent's folder declares its own (claude.Agent, codex.Agent, …);
// runner/agents lists them, and every reader (doctor, shims, ps, exec,
// sandbox --agent, the landing commit, the user service's scanner) reads
// that list.
type Agent struct {
	// Name is its program's name as people type it: the shim's name,
	// sandbox --agent's, the coder the journal names.
	Name string
	// Title is how doctor names it ("Claude Code").
	Title string
	// Packages are the package directories (npm, pip) its program is
	// installed in: a script under one of them is this agent whatever the
	// script's own name (cli.js, index.js).
	Packages []string
	// Install is the command that installs it ("" for an agent Sentinel
	// only recognises); doctor shows it when the program is missing.
	Install string
	// Home is what it needs of the person's home to run in a bare
	// sandbox (sandbox --agent); zero for an agent that has no such mode.
	Home Home
	// History, when set, keeps the agent's own history for dir across a
	// bare sandbox's per-run home (sandbox --agent), as direct use does:
	// seeded into runHome before, what it added copied back after.
	History func(home, runHome, dir string) (*agentutil.KeptState, error)
	// CoAuthor credits it in a landing commit's Co-authored-by trailer;
	// "" credits it under its name at Sentinel's address.
	CoAuthor string
	// Dialect is its hook dialect's name in runner/dialects, "" for none.
	Dialect string
	// Shim says `sentinel shims install` makes a launcher shim for it.
	Shim bool
	// Coders are the --coder names it answers to (nil: it is no
	// --coder of its own), and Run builds its adapter for sentinel run.
	Coders []string
	Run    func(RunArgs) (Adapter, error)
	// NotCoder says how to run it under sentinel run when it is not a
	// --coder of its own ("speaks ACP: …"); "" when it is not supported.
	NotCoder string
	// InPlace builds its adapter for `sentinel exec`; nil runs it as any
	// program, with the sandbox as its only gate.
	InPlace func(InPlaceArgs) (Adapter, error)
	// InPlaceGate says, for exec's first line, what decides its tool
	// calls in place ("" for its approval hooks as in sentinel run).
	InPlaceGate string
	// HostedModel, when set, is how its sign-in and model endpoint are
	// checked before a run when another adapter hosts its program (--coder
	// acp -- NAME ARGS...; args are ARGS as they will start).
	HostedModel func(args []string) Model
	// MCPServers, when set, are the person's stdio MCP servers the agent
	// starts for project, and the places they need readable: doctor
	// starts each inside a sandbox and names the ones that fail.
	MCPServers func(home, project string) (servers []MCPServer, readable []string)
	// ACP, when set, is what it needs beyond the protocol when --coder acp
	// runs its program.
	ACP *ACPGuest
}

// MCPServer is one of the person's stdio MCP servers, as an agent's
// config names it.
type MCPServer struct {
	Name    string
	Scope   string // "user", or "project" for a project's entry
	Command string
	Args    []string
	Env     map[string]string
}

// Home is what an agent needs of the person's home inside a bare sandbox:
// copies of its login and settings, and the variables that carry its API
// keys and endpoints (sandbox.AgentNeeds is the same type).
type Home = agentutil.Home

// RunArgs is what `sentinel run --coder NAME` gives an agent's Run.
type RunArgs struct {
	Name    string   // the --coder name, one of Agent.Coders
	Command []string // the argv after --, when one was given
	// Helper is the program an agent's hooks start: sentinel-helper when
	// it sits beside sentinel, else the sentinel binary (helperbin.Path).
	Helper string
}

// InPlaceArgs is what `sentinel exec -- PROGRAM ARGS...` gives an agent's
// InPlace: the program found on PATH, the launch (Launch[:At]: the program,
// or an interpreter and the agent's script) and the person's own arguments
// (Launch[At:]).
type InPlaceArgs struct {
	Launch []string
	At     int
	// Helper is the program an agent's hooks start, as in RunArgs.
	Helper string
}

// Program is the argv that starts the agent (the program, or a script
// host and its script).
func (a InPlaceArgs) Program() []string { return a.Launch[:a.At] }

// Args are the person's own arguments.
func (a InPlaceArgs) Args() []string { return a.Launch[a.At:] }
