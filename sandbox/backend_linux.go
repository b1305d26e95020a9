package sandbox

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"

	"github.com/sentinelhq/sentinel/internal/hostbin"
	"github.com/sentinelhq/sentinel/sandbox/inside"
	"golang.org/x/sys/unix"
)

// pickBackend resolves auto and refuses when the machine cannot enforce
// the profile.
func (s *Sandbox) pickBackend(m Mode) (Mode, error) {
	if m == ModeOff {
		return ModeOff, nil
	}
	if err := checkKernel(); err != nil {
		return "", err
	}
	// bwrap starts before any sandbox exists, with the person's whole
	// environment: only the system's own copy, never one found first on
	// PATH or in the project (internal/hostbin).
	bw, bwErr := hostbin.Find("bwrap")
	switch m {
	case ModeBwrap:
		if bwErr != nil {
			return "", fmt.Errorf("sandbox: bubblewrap (bwrap) is not installed in a system directory (%v); install it (apt-get install bubblewrap), use --sandbox ns, or run with --sandbox off knowingly", bwErr)
		}
		s.bwrap = bw
		return ModeBwrap, nil
	case ModeAuto:
		if bwErr == nil {
			s.bwrap = bw
			return ModeBwrap, nil
		}
	}
	if err := checkUserNS(); err != nil {
		return "", err
	}
	return ModeNS, nil
}

// checkKernel refuses when Landlock or seccomp is missing or the
// architecture has no seccomp filter here.
func checkKernel() error {
	if !inside.SeccompFiltered() {
		return fmt.Errorf("sandbox: no seccomp filter for %s in this build; run with --sandbox off knowingly", runtime.GOARCH)
	}
	if abi := LandlockABI(); abi < 1 {
		return fmt.Errorf("sandbox: this kernel does not offer Landlock (needs Linux ≥ 5.13 with CONFIG_SECURITY_LANDLOCK and \"landlock\" in the lsm= boot parameter); fix that or run with --sandbox off knowingly")
	}
	if _, err := unix.PrctlRetInt(unix.PR_GET_SECCOMP, 0, 0, 0, 0); err != nil {
		return fmt.Errorf("sandbox: this kernel does not offer seccomp filters (CONFIG_SECCOMP_FILTER): %v; run with --sandbox off knowingly", err)
	}
	return nil
}

// checkUserNS refuses when unprivileged user namespaces are switched off.
func checkUserNS() error {
	if b, err := os.ReadFile("/proc/sys/user/max_user_namespaces"); err == nil && string(b) == "0\n" {
		return fmt.Errorf("sandbox: user namespaces are disabled (user.max_user_namespaces=0); enable them with sysctl -w user.max_user_namespaces=15000 or run with --sandbox off knowingly")
	}
	if os.Getuid() != 0 {
		if b, err := os.ReadFile("/proc/sys/kernel/unprivileged_userns_clone"); err == nil && string(b) == "0\n" {
			return fmt.Errorf("sandbox: unprivileged user namespaces are disabled; enable them with sysctl -w kernel.unprivileged_userns_clone=1, install bubblewrap, or run with --sandbox off knowingly")
		}
	}
	return nil
}

// LandlockABI is the Landlock ABI version the kernel offers (0: none).
func LandlockABI() int { return inside.LandlockABI() }

// helperSpec is what the re-exec helper needs to know (inside.Spec).
type helperSpec = inside.Spec

func (s *Sandbox) spec(dir string) helperSpec {
	// The same plan Seatbelt renders (plan.go), mounted.
	m := PlanOf(s.p, nil).mounts(s.p.Workspace, s.p.TempDir)
	sp := helperSpec{
		Backend: string(s.mode), Dir: dir, Workspace: s.p.Workspace, TempDir: s.p.TempDir,
		Writable: m.Writable, Readable: m.Readable, ReadOnly: m.ReadOnly,
		Hidden: m.Hidden, Protected: m.Protected, AgentState: s.p.AgentState, Net: string(s.p.Net), Places: s.p.Places,
		Links: s.p.links,
		Empty: filepath.Join(s.base, "empty"), Root: filepath.Join(s.base, "root"),
		Denied: s.denied, Report: s.reportW != nil,
		PidsMax: s.p.pidsMax(), PidsCgroup: s.pidsProcs != nil,
	}
	// bwrap execs the helper by path inside the new root.
	if r, err := filepath.EvalSymlinks(s.helper); err == nil {
		sp.Readable = append(append([]string{}, sp.Readable...), r)
	}
	if s.p.Net == NetProxy {
		sp.ProxyPort = InsideProxyPort
	}
	if s.p.Overlay != nil {
		splitOverlayProtected(&sp, s.p.Overlay)
	}
	return sp
}

func (s *Sandbox) command(ctx context.Context, dir string, argv []string) (*exec.Cmd, error) {
	sp := s.spec(resolve(dir))
	// The program itself must be readable inside: its real directory (an
	// npm package, a versioned install under ~/.local/share) joins the
	// read-only locations for this command.
	// A relative program (./s.sh) is found from the command's directory,
	// not Sentinel's, and only an absolute path joins the mounts: a "."
	// there was bound before the system locations and bwrap could no
	// longer make /usr in the read-only root.
	prog := argv[0]
	if strings.Contains(prog, "/") && !filepath.IsAbs(prog) {
		prog = filepath.Join(sp.Dir, prog)
	}
	if p, err := exec.LookPath(prog); err == nil {
		if r, err := filepath.EvalSymlinks(p); err == nil && filepath.IsAbs(r) {
			if d := filepath.Dir(r); d != "/" && d != "/tmp" {
				r = d
			}
			sp.Readable = append(append([]string{}, sp.Readable...), r)
		}
	}
	js, err := inside.EncodeSpec(sp)
	if err != nil {
		return nil, err
	}
	helperArgs := append([]string{s.helper, HelperArg, inside.Stage1, string(js), "--"}, argv...)
	var c *exec.Cmd
	switch s.mode {
	case ModeBwrap:
		// bwrap starts with keyboard signals ignored (see stage0), set by
		// the system shell: starting this whole binary once more only for
		// that cost every sandboxed command its package initialisation
		// (a third of the sandbox's fixed start, measured).
		args := append([]string{s.bwrap}, inside.BwrapArgs(sp)...)
		if sp.Overlay != nil {
			args = append(args, overlayCaps...)
		}
		args = append(args, "--")
		if keyboardSignalsIgnored() {
			// The caller ignores them already (sandbox run does): an
			// ignored disposition survives fork and exec, so bwrap starts
			// as stage0 would start it, one program start sooner.
			c = exec.CommandContext(ctx, s.bwrap, append(args[1:], helperArgs...)...)
		} else if _, err := os.Stat(stage0Shell); err == nil {
			args = append([]string{"-c", stage0Script}, args...)
			c = exec.CommandContext(ctx, stage0Shell, append(args, helperArgs...)...)
		} else {
			c = exec.CommandContext(ctx, s.helper, append(append([]string{HelperArg, "stage0", "--"}, args...), helperArgs...)...)
		}
		c.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
	case ModeNS:
		c = exec.CommandContext(ctx, s.helper, helperArgs[1:]...)
		c.SysProcAttr = &syscall.SysProcAttr{
			Cloneflags: syscall.CLONE_NEWUSER | syscall.CLONE_NEWNS | syscall.CLONE_NEWPID |
				syscall.CLONE_NEWNET | syscall.CLONE_NEWIPC | syscall.CLONE_NEWUTS,
			UidMappings:                []syscall.SysProcIDMap{{ContainerID: 0, HostID: os.Getuid(), Size: 1}},
			GidMappings:                []syscall.SysProcIDMap{{ContainerID: 0, HostID: os.Getgid(), Size: 1}},
			GidMappingsEnableSetgroups: false,
			Pdeathsig:                  syscall.SIGKILL,
		}
	default:
		return nil, errors.New("sandbox: no backend")
	}
	c.Dir = sp.Dir
	// bwrap and the helper start with the coder's environment only: bwrap's
	// own pid 1 keeps its environ readable in /proc/1/environ.
	c.Env = s.env("/tmp")
	if c.ExtraFiles, err = s.extraFiles(); err != nil {
		return nil, err
	}
	if c.ExtraFiles, err = s.pidsFiles(c.ExtraFiles); err != nil {
		return nil, err
	}
	return c, nil
}

// keyboardSignalsIgnored says whether this process ignores SIGINT and
// SIGQUIT now, so that a child it starts does too.
func keyboardSignalsIgnored() bool {
	return signal.Ignored(syscall.SIGINT) && signal.Ignored(syscall.SIGQUIT)
}

// stage0Shell runs stage0Script: bwrap (its $0) with its arguments, SIGINT
// and SIGQUIT ignored across the exec, as stage0 does.
const (
	stage0Shell  = "/bin/sh"
	stage0Script = `trap '' INT QUIT; exec "$0" "$@"`
)
