package sandbox

// This file is the contract the runner and cmd code against. Keep these
// names and meanings stable; add fields freely.

import (
	"context"

	"github.com/sentinelhq/sentinel/sandbox/inside"
)

// Mode picks the enforcement backend.
type Mode string

// The modes `--sandbox` accepts.
const (
	ModeAuto  Mode = "auto"              // bubblewrap when present, else Go's own namespaces
	ModeNS    Mode = inside.BackendNS    // Go clone flags + re-exec helper (Landlock, seccomp)
	ModeBwrap Mode = inside.BackendBwrap // bubblewrap + re-exec helper (Landlock, seccomp)
	ModeOff   Mode = "off"               // no sandbox: only when the person asks for it
)

// NetMode says how the process tree may reach the network.
type NetMode string

// Network modes.
const (
	NetProxy NetMode = inside.NetProxy // only through Sentinel's allowlisting proxy
	NetNone  NetMode = "none"          // no network at all (verification, adversary)
	NetHost  NetMode = "host"          // the host's network (sandbox off only)
)

// Profile says what a sandboxed process tree may do.
type Profile struct {
	Workspace string   // writable root: the coder's workspace
	TempDir   string   // private temp dir; made by Prepare when empty
	Writable  []string // further writable roots (agent state dirs and files)
	// AgentState are roots of Writable that are the agent's own state
	// (Claude Code's config dir, CODEX_HOME: transcripts, sessions): the
	// agent writes them, the commands it starts through the system
	// shells (internal/shellscope's wrapper, shown by Places) cannot.
	// Each must be a root of Writable that lies in no other writable root
	// (Landlock grants a hierarchy whole); Prepare refuses one that does.
	// Linux backends with the wrapper only; elsewhere the commands can
	// write them as before.
	AgentState []string
	Readable   []string // further readable locations beyond the system ones
	Hidden     []string // never readable (credential locations, config additions)
	Protected  []string // inside writable roots but kept read-only (.git/hooks, .git/config, …)
	ReadOnly   []string // Sentinel's own state: readable (e.g. the broker socket's dir), never writable
	Net        NetMode
	AllowHosts []string // host[:port] the proxy lets through without asking
	Env        []string // KEY=VALUE set inside, on top of the allowlisted environment
	PassEnv    []string // names passed through from Sentinel's environment (the agent's API keys)
	// Places are files or directories of Sentinel's shown read-only at a
	// path of its choosing (an agent's managed-policy file at the system
	// location the agent reads). Linux backends only (PlacesEnforced);
	// Prepare refuses them where they cannot be enforced, and with
	// --sandbox off they are not shown at all.
	Places []Place
	// DeniedExecutables ([service] denied_executables) are programs the
	// kernel refuses to run or read inside: a name is that program in PATH
	// and the bin directories, an absolute path that one file (execdeny.go).
	// Linux backends only; Prepare refuses them where they cannot be
	// enforced, --sandbox off included.
	DeniedExecutables []string
	// PidsMax bounds how many processes the sandbox holds at once
	// ([sandbox] pids_max): 0 is DefaultPidsMax, negative is no limit.
	// A pids cgroup where Sentinel may make one, and RLIMIT_NPROC inside
	// the sandbox's user namespace (pids_linux.go). Linux backends only.
	PidsMax int
	// Overlay, when set, makes Workspace the upper layer of an overlay over
	// a shared read-only checkout (overlay.go). Linux backends only.
	Overlay *Overlay

	links []inside.Link // the symlinks on the way to Readable (normalize), made again inside
}

// Place shows Source (a host file or directory Sentinel wrote, outside
// everything the sandbox makes writable) read-only at Path inside. Path need
// not exist on the host: the directories above it are made inside.
type Place = inside.Place

// ExecDenial is one program the sandbox refused to run (Options.OnExecDeny).
type ExecDenial = inside.ExecDenial

// HostAsker is asked when the proxy meets a host the profile does not allow.
// It must fail closed: any error is a refusal.
type HostAsker func(ctx context.Context, host string, port int) (allowed bool, reason string)

// Options configure Prepare.
type Options struct {
	Mode  Mode
	Asker HostAsker
	// OnDeny, when set, hears each host the proxy refuses, with the reason
	// the sandboxed tool is given (see Denial), so the run can journal it.
	OnDeny func(Denial)
	// OnExecDeny, when set, hears each program the sandbox refused to run
	// because of Profile.DeniedExecutables (as the exec watcher saw it:
	// see sandbox/inside's execdeny_notify_linux.go), so the run can journal it.
	OnExecDeny func(ExecDenial)
	// Helper is the sentinel binary re-executed inside the namespaces
	// (HelperArg). Empty means sentinel-helper beside the running executable when it is
	// there (internal/helperbin), else the running executable; tests that are not
	// the sentinel binary point it at a built one.
	Helper string
}

// HelperArg is the hidden first argument with which the sentinel binary
// re-executes itself inside the namespaces to apply Landlock and seccomp
// before exec'ing the real command. main must hand such invocations to
// HelperMain before any other parsing.
const HelperArg = inside.Arg

// HelperMain is the helper's side inside the namespaces (inside.Main): main
// hands it what follows HelperArg.
func HelperMain(args []string) int { return inside.Main(args) }
