package policy

// This file is the contract other packages code against (approvals, runner,
// cmd), with reader.go (the one shell reader: approvals, runner/codex,
// supervisor/steer). Keep these names and meanings stable; add fields freely.

import (
	"fmt"

	"github.com/sentinelhq/sentinel/policy/kind"
)

// Decision is the policy's answer. The order is strictness: the strictest
// part of a request wins, so max(Decision) is the combined answer.
type Decision int

// Decisions, least strict first.
const (
	Allow Decision = iota
	Ask
	Deny
)

func (d Decision) String() string {
	switch d {
	case Allow:
		return "allow"
	case Ask:
		return "ask"
	case Deny:
		return "deny"
	}
	return fmt.Sprintf("Decision(%d)", int(d))
}

// MarshalText makes a Decision encode as "allow" / "ask" / "deny".
func (d Decision) MarshalText() ([]byte, error) { return []byte(d.String()), nil }

// UnmarshalText parses "allow" / "ask" / "deny".
func (d *Decision) UnmarshalText(b []byte) error {
	switch string(b) {
	case "allow":
		*d = Allow
	case "ask":
		*d = Ask
	case "deny":
		*d = Deny
	default:
		return fmt.Errorf("unknown decision %q (want allow, ask or deny)", b)
	}
	return nil
}

// Kind is what a request wants to do (defined in policy/kind, which the
// hook's side of the broker's protocol imports without this engine).
type Kind = kind.Kind

// Request kinds shared by every adapter.
const (
	KindShell = kind.Shell
	KindWrite = kind.Write
	KindEdit  = kind.Edit
	KindRead  = kind.Read
	KindNet   = kind.Net
	KindMCP   = kind.MCP
	KindOther = kind.Other
)

// Context is where a request is judged.
type Context struct {
	Workspace string // absolute root of the coder's workspace
	Cwd       string // absolute working directory of the request (defaults to Workspace)
	Home      string // the person's home directory, for credential locations
	// Writable lists extra absolute roots the coder may write to besides the
	// workspace (e.g. the sandbox's private temp dir). Empty means none.
	Writable []string
	// Sandboxed says the command will run inside Sentinel's OS sandbox
	// (workspace-only writes, credentials hidden, network through the
	// proxy). Running the project's own code — its scripts, generators,
	// inline snippets — is then allowed as the build is; without it
	// (--sandbox off, or an adapter that does not say) the policy is the
	// only gate and those ask. The zero value is the stricter answer.
	Sandboxed bool
	// InPlace says the request acts on the person's real files (sentinel
	// exec, the shims, sentinel mcp), not on a disposable copy: deleting or
	// discarding uncommitted work there asks unless Checkpointed.
	InPlace bool
	// Checkpointed says a checkpoint covers the place (sentinel undo can
	// restore it byte for byte), so in-place deletions are workspace work
	// as they are in a copy.
	Checkpointed bool
	// AllowHosts are the HOST[:PORT] entries the run's sandbox proxy lets
	// through without asking (--allow-host, [sandbox] allow_hosts, the
	// agent's model host). A net request for one of them is allowed
	// (RuleNetRunHost) instead of asking about a host the proxy passes anyway.
	AllowHosts []string
	// WorkspaceVars names environment variables the runner set to Workspace
	// in the coder's environment (CLAUDE_PROJECT_DIR): cd "$CLAUDE_PROJECT_DIR"
	// is then cd to the workspace root, as cd "$HOME" is cd ~. Names not
	// listed stay unknown; a line that assigns one judges its own value.
	WorkspaceVars []string
}

// Query is one structured question to the engine.
type Query struct {
	Kind    Kind
	Command string // KindShell: the shell text
	Path    string // KindWrite/KindEdit/KindRead: the target path
	URL     string // KindNet: a URL (host and port are taken from it when Host is empty)
	Host    string // KindNet
	Port    int    // KindNet; 0 means the scheme's default
	Tool    string // KindMCP / KindOther: the tool name, e.g. mcp__github__create_issue
	Context Context
	// Reading is Read(Command), for a caller that asks more than one
	// question of the same line: the engine judges it instead of parsing
	// Command again (a Reading of other text is ignored). Optional.
	Reading *Reading
}

// Part is the judgment of one simple command of a shell line (or the single
// part of a structured request).
//
// What Parts holds for a shell line, in the order things run (source order,
// except that a $() or <() inside a command's words comes before that
// command, and a payload's commands come right after the command that runs
// them):
//   - one Part per simple command, wherever it appears (lists, pipelines,
//     subshells, $(), backticks, <(), heredoc bodies, function bodies);
//   - Argv is the effective command after wrappers are stripped
//     ("timeout 5 make test" gives Argv [make test] and Wrappers
//     [timeout 5]); Assigns holds NAME=value prefixes (including env's);
//   - a command run by another command's arguments gets its own Part with
//     Via set: "sh -c" / "bash -c" payloads (re-parsed, one Part per simple
//     command), "find -exec", "xargs" (Dynamic, since stdin supplies args),
//     "eval", "trap", "alias", "watch"; the outer command keeps its own Part;
//   - a redirection on a compound command ("{ a; b; } > f") is a Part with
//     nil Argv, Via "redirect" and the target in Redirects;
//   - a function definition, [[ ]], (( )) and let are Parts with Via
//     "function", "test", "arith".
//
// A template matcher must cover every Part; a Part with nil Argv or Dynamic
// set cannot be matched by an argv template.
type Part struct {
	Text      string   // the source text of this part
	Argv      []string // the decoded argv; nil when it could not be decoded statically
	Dynamic   bool     // it contains a substitution, expansion or anything not static
	Redirects []string // redirection targets, resolved to absolute paths where static
	Decision  Decision
	Rule      string
	Reason    string
	Wrappers  []string `json:",omitempty"` // wrapper tokens stripped before Argv (env, timeout, nice, …)
	Assigns   []string `json:",omitempty"` // NAME=value prefixes, decoded
	Via       string   `json:",omitempty"` // how this command is reached when not written directly
	// Written says, when the engine read the part, whether Text is exactly
	// Argv as written: one simple command of plain words (no assignment,
	// wrapper, expansion, glob, ~ or escape). Templates compare written
	// words and use it instead of reading Text again (written.go).
	Written Written `json:"-"`
}

// Verdict is the engine's whole answer.
type Verdict struct {
	Decision Decision
	Rule     string // the id of the deciding rule
	Reason   string // one sentence a person (and the coder) can read
	Parts    []Part // every simple command found, in source order
	// NeverDelegable marks requests only a person may approve (network to a
	// new host, writes to files that run code later, reads of files that
	// usually hold secrets): a supervisor model may not answer them.
	NeverDelegable bool
}
