package inside

import (
	"fmt"
	"slices"
	"strings"
)

// Arg is the hidden first argument with which the sentinel binary (or
// sentinel-helper) is re-executed inside the namespaces; Main takes what
// follows it.
const Arg = "__sandbox-exec"

// Stage1 is the stage that follows Arg in the argv of the namespace's pid 1;
// the spec is the argument after it (internal/shellscope reads it there).
const Stage1 = "stage1"

// The backends and network modes a Spec names: the sandbox package's
// ModeNS, ModeBwrap and NetProxy are these.
const (
	BackendNS    = "ns"
	BackendBwrap = "bwrap"
	NetProxy     = "proxy"
)

// Spec is what the re-exec helper needs to know; the sandbox package
// makes it and it travels as one JSON argument (it holds paths, never
// secrets).
type Spec struct {
	Backend   string   `json:"backend"` // BackendNS: the helper mounts; BackendBwrap: bwrap did
	Dir       string   `json:"dir"`
	Workspace string   `json:"workspace"`
	TempDir   string   `json:"tmp"`
	Writable  []string `json:"writable,omitempty"`
	Readable  []string `json:"readable,omitempty"`
	ReadOnly  []string `json:"readonly,omitempty"`
	Hidden    []string `json:"hidden,omitempty"`
	Protected []string `json:"protected,omitempty"`
	// AgentState are writable roots (in Writable) that are the agent's
	// own state: the shells the agent starts (internal/shellscope) enter a
	// domain that cannot write them (sandbox.Profile.AgentState).
	AgentState []string     `json:"agent_state,omitempty"`
	Net        string       `json:"net"` // the sandbox's NetMode
	ProxyPort  int          `json:"proxy_port,omitempty"`
	Empty      string       `json:"empty"` // an empty read-only file mounted over hidden files
	Root       string       `json:"root"`  // ns backend: where the new root is built
	Places     []Place      `json:"places,omitempty"`
	Links      []Link       `json:"links,omitempty"`       // symlinks on the way to readable paths, made again inside
	Denied     []DeniedFile `json:"denied,omitempty"`      // refused at exec time (the sandbox's execdeny.go)
	Report     bool         `json:"report,omitempty"`      // fd 4 takes the exec watcher's refusals
	PidsMax    int          `json:"pids_max,omitempty"`    // RLIMIT_NPROC inside (0: none)
	PidsCgroup bool         `json:"pids_cgroup,omitempty"` // fd 5 is a pids cgroup's cgroup.procs to join
	// Overlay: the workspace is an overlay (overlay_linux.go).
	Overlay *OverlaySpec `json:"overlay,omitempty"`
}

// OverlaySpec is the helper's part of an overlay workspace: the layers' host
// paths and the protected paths inside the workspace, pinned read-only on
// the merged view (the host's upper directory does not have them).
type OverlaySpec struct {
	Lower     string   `json:"lower"`
	Work      string   `json:"work"`
	Protected []string `json:"protected,omitempty"`
}

// Place shows Source (a host file or directory Sentinel wrote, outside
// everything the sandbox makes writable) read-only at Path inside. Path need
// not exist on the host: the directories above it are made inside.
type Place struct {
	Path   string `json:"path"`
	Source string `json:"source"`
}

// Link is a symlink of the host's met on the way to a readable path
// (~/.cargo -> /data/cargo): the readable path is shown at its real
// location, and the link is made again inside, at Path with the same
// Target (as read, relative or not), so the path the person uses works.
type Link struct {
	Path   string `json:"path"`
	Target string `json:"target"`
}

// DeniedFile is one file the sandbox refuses to run or read, found outside
// the sandbox (the sandbox package's Prepare) and carved out of the Landlock rules inside.
type DeniedFile struct {
	Entry string `json:"entry"` // the denied_executables entry it answers
	Path  string `json:"path"`  // real path (symlinks resolved), the same inside
	Dev   uint64 `json:"dev"`
	Ino   uint64 `json:"ino"`
	Size  int64  `json:"size"`
	Sum   string `json:"sum,omitempty"` // its content's sum (HashFile), to know a copy of it (the exec watcher)
}

// ExecDenial is one program the sandbox refused to run, as the exec watcher
// reports it (the sandbox's Options.OnExecDeny).
type ExecDenial struct {
	Entry string `json:"entry"` // the denied_executables entry it matched
	Path  string `json:"path"`  // the path the process asked to run
	File  string `json:"file"`  // the denied file it is (or is a copy of)
	Copy  bool   `json:"copy,omitempty"`
	Pid   int    `json:"pid"` // inside the sandbox's pid namespace
}

// Line is the refusal in one line, for the journal and the terminal.
func (d ExecDenial) Line() string {
	what := ""
	switch {
	case d.Copy:
		what = "a copy of " + d.File + "; "
	case d.Path != d.File:
		what = d.File + "; "
	}
	return fmt.Sprintf("refused to run %s (%s%q is in [service] denied_executables)", d.Path, what, d.Entry)
}

// systemReadable are the locations every sandboxed process may read and
// execute from. The home directory is deliberately absent. Nothing else of
// the host's filesystem is even visible inside: the sandbox's root is a
// fresh, read-only tmpfs holding only these, the profile's paths, a private
// /tmp and a minimal /dev (so no stray unix socket can be reached).
var systemReadable = []string{
	"/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32", "/etc",
	"/opt", "/nix", "/proc", "/sys",
}

// SystemReadable is a copy of systemReadable, for the sandbox's host side.
func SystemReadable() []string { return slices.Clone(systemReadable) }

// Within reports whether path is root or lies beneath it.
func Within(path, root string) bool {
	return path == root || strings.HasPrefix(path, strings.TrimSuffix(root, "/")+"/")
}
