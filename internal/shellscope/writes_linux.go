package shellscope

import (
	"bytes"
	"fmt"
	"os"
	"slices"
	"strings"
	"unsafe"

	"github.com/sentinelhq/sentinel/sandbox/inside"
	"golang.org/x/sys/unix"
)

// The agent's own state (its transcripts, sessions, history) is written by
// the agent, never by the commands it starts: the domain the wrapper
// enters also handles the file-system write rights and grants them under
// every root the sandbox makes writable except the agent's state dirs.
// Both lists are the sandbox's own mount plan, read from stage 1's
// arguments (/proc/1/cmdline: the spec the sandbox package gave its pid 1,
// which runs outside the sandbox's Landlock domain, so no command can
// ptrace it or rewrite its memory, and which no file or variable of the
// coder's reaches). A plan with no agent state handles no file right: the
// domain is the signal scope alone, as before.

// planFile is where the wrapper reads the sandbox's plan: stage 1's argv.
// A variable for the tests, which have no stage 1.
var planFile = "/proc/1/cmdline"

// readPlan is the sandbox's spec in cmdline (NUL-separated argv): the
// argument after inside.Arg and inside.Stage1. A cmdline that is no stage
// 1's is an empty spec.
func readPlan(cmdline []byte) (inside.Spec, error) {
	args := strings.Split(string(cmdline), "\x00")
	for i := 0; i+2 < len(args); i++ {
		if args[i] == inside.Arg && args[i+1] == inside.Stage1 {
			sp, err := inside.DecodeSpec([]byte(args[i+2]))
			if err != nil {
				return inside.Spec{}, fmt.Errorf("read the sandbox's plan: %w", err)
			}
			return sp, nil
		}
	}
	return inside.Spec{}, nil
}

// writeRights are the file-system rights that change what is there, as
// the kernel's ABI has them.
func writeRights(abi int) uint64 {
	w := uint64(unix.LANDLOCK_ACCESS_FS_WRITE_FILE | unix.LANDLOCK_ACCESS_FS_REMOVE_DIR | unix.LANDLOCK_ACCESS_FS_REMOVE_FILE |
		unix.LANDLOCK_ACCESS_FS_MAKE_CHAR | unix.LANDLOCK_ACCESS_FS_MAKE_DIR | unix.LANDLOCK_ACCESS_FS_MAKE_REG |
		unix.LANDLOCK_ACCESS_FS_MAKE_SOCK | unix.LANDLOCK_ACCESS_FS_MAKE_FIFO | unix.LANDLOCK_ACCESS_FS_MAKE_BLOCK |
		unix.LANDLOCK_ACCESS_FS_MAKE_SYM)
	if abi >= 2 {
		w |= unix.LANDLOCK_ACCESS_FS_REFER // a link or rename from or into another directory
	}
	if abi >= 3 {
		w |= unix.LANDLOCK_ACCESS_FS_TRUNCATE
	}
	if abi >= 5 {
		w |= unix.LANDLOCK_ACCESS_FS_IOCTL_DEV
	}
	return w
}

// fileRights are the write rights that make sense on a file.
const fileRights = unix.LANDLOCK_ACCESS_FS_WRITE_FILE | unix.LANDLOCK_ACCESS_FS_TRUNCATE | unix.LANDLOCK_ACCESS_FS_IOCTL_DEV

// WriteRoots are the roots under which the wrapper grants the write
// rights for the sandbox's spec p: every root the sandbox makes writable (the workspace,
// its private /tmp, /dev, the further writable roots), less those that
// are or lie in one of the agent's state dirs. Granting beyond what the
// sandbox's own domain grants is harmless (a process is held to every
// domain it is in), so /tmp and all of /dev are named whole. A state dir
// that lies inside another writable root cannot be left out (Landlock
// grants a hierarchy whole): an error, and the wrapper refuses the shell;
// the sandbox refuses such a profile before (sandbox.Profile.AgentState).
// None when p names no agent state: the wrapper then handles no file
// right.
func WriteRoots(p inside.Spec) ([]string, error) {
	if len(p.AgentState) == 0 {
		return nil, nil
	}
	var out []string
	for _, r := range append([]string{p.Workspace, "/tmp", "/dev"}, p.Writable...) {
		if r == "" || !strings.HasPrefix(r, "/") {
			continue
		}
		kept := false
		for _, a := range p.AgentState {
			if inside.Within(r, a) {
				kept = true
				break
			}
			if inside.Within(a, r) {
				return nil, fmt.Errorf("the agent's state %s lies in the writable %s, which cannot be granted without it", a, r)
			}
		}
		if !kept && !slices.Contains(out, r) {
			out = append(out, r)
		}
	}
	return out, nil
}

// planRoots reads the sandbox's plan and returns the roots to grant
// writes under (none: handle no file right).
func planRoots() ([]string, error) {
	b, err := os.ReadFile(planFile)
	if err != nil {
		return nil, fmt.Errorf("read the sandbox's plan: %w", err)
	}
	p, err := readPlan(bytes.TrimRight(b, "\x00"))
	if err != nil {
		return nil, err
	}
	return WriteRoots(p)
}

// addWriteRules grants the ABI's write rights under each of roots to the
// ruleset fd. A root missing here grants nothing.
func addWriteRules(fd int, roots []string, rights uint64) error {
	for _, r := range roots {
		pfd, err := unix.Open(r, unix.O_PATH|unix.O_CLOEXEC, 0)
		if err != nil {
			if os.IsNotExist(err) || os.IsPermission(err) {
				continue
			}
			return fmt.Errorf("open %s: %w", r, err)
		}
		var st unix.Stat_t
		access := rights
		if err := unix.Fstat(pfd, &st); err == nil && st.Mode&unix.S_IFMT != unix.S_IFDIR {
			access &= fileRights
		}
		attr := unix.LandlockPathBeneathAttr{Allowed_access: access, Parent_fd: int32(pfd)}
		_, _, e := unix.Syscall6(unix.SYS_LANDLOCK_ADD_RULE, uintptr(fd), unix.LANDLOCK_RULE_PATH_BENEATH,
			uintptr(unsafe.Pointer(&attr)), 0, 0, 0)
		unix.Close(pfd)
		if e != 0 {
			return fmt.Errorf("rule for %s: %w", r, e)
		}
	}
	return nil
}
