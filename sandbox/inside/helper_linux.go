package inside

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"os/signal"
	"runtime"
	"syscall"

	"golang.org/x/sys/unix"
)

// Main runs inside the namespaces (the helper re-executed with Arg). Stage 1 (the namespace's pid 1
// under both backends) builds the mounts (ns backend), brings up loopback,
// runs the proxy forwarder and starts the command confined (see
// startConfined), then waits and passes on the exit status. The sentinel
// binary starts once per sandboxed command.
func Main(args []string) int {
	if len(args) >= 3 && args[0] == "stage0" && args[1] == "--" {
		return stage0(args[2:])
	}
	if len(args) == 2 && args[0] == watchArg {
		return watchMain(args[1])
	}
	if len(args) < 4 || args[2] != "--" {
		fmt.Fprintln(os.Stderr, "sentinel sandbox helper: internal use only")
		return 125
	}
	argv := args[3:]
	if args[0] == "view" {
		return viewMain(args[1], argv)
	}
	sp, err := DecodeSpec([]byte(args[1]))
	if err != nil {
		return helperFail("bad spec", err)
	}
	if args[0] == Stage1 {
		return stage1(sp, argv)
	}
	return helperFail("unknown stage "+args[0], nil)
}

func helperFail(what string, err error) int {
	fmt.Fprintf(os.Stderr, "sentinel sandbox: %s: %v (refusing to run unconfined)\n", what, err)
	return 125
}

// stage0 starts bubblewrap with keyboard signals ignored: bwrap sits in the
// terminal's foreground process group and would die of a Ctrl-C meant for
// the command. Stage 1 handles them again, so the command starts with the
// default dispositions. The system shell does this job (stage0Script),
// far cheaper than starting this binary; stage0 is for a system without
// /bin/sh.
func stage0(argv []string) int {
	signal.Ignore(syscall.SIGINT, syscall.SIGQUIT)
	err := syscall.Exec(argv[0], argv, os.Environ())
	return helperFail("exec bwrap", err)
}

// proxyFD is where the sandbox's Sandbox.Command puts the proxy socket's directory.
const proxyFD = 3

// pidsFD is where the sandbox's Sandbox.Command puts the pids cgroup's
// cgroup.procs.
const pidsFD = 5

func stage1(sp Spec, argv []string) int {
	if err := limitPids(sp); err != nil {
		return helperFail("pids limit", err)
	}
	if sp.Backend == BackendNS {
		if err := applyMounts(planMounts(sp), sp.Root); err != nil {
			return helperFail("mounts", err)
		}
		if err := loopbackUp(); err != nil {
			return helperFail("loopback", err)
		}
	}
	if sp.Overlay != nil {
		if err := mountOverlay(sp); err != nil {
			return helperFail("workspace overlay", err)
		}
	}
	if err := os.Chdir(sp.Dir); err != nil {
		return helperFail("working directory", err)
	}
	if sp.Net == NetProxy {
		if err := startForwarder(sp.ProxyPort); err != nil {
			return helperFail("proxy bridge", err)
		}
	} else {
		unix.Close(proxyFD)
	}
	sigs := make(chan os.Signal, 8)
	// Keyboard signals reach the command from the terminal itself; the
	// others are passed on. Handled (not ignored) so the child starts with
	// default dispositions.
	signal.Notify(sigs, syscall.SIGINT, syscall.SIGQUIT, syscall.SIGTERM, syscall.SIGHUP, syscall.SIGUSR1, syscall.SIGUSR2)
	pid, err := startConfined(sp, argv)
	if errors.Is(err, exec.ErrNotFound) {
		fmt.Fprintf(os.Stderr, "sentinel sandbox: %v\n", err)
		return 127
	}
	if err != nil {
		return helperFail("enforce", err)
	}
	go func() {
		for s := range sigs {
			if s != syscall.SIGINT && s != syscall.SIGQUIT {
				syscall.Kill(pid, s.(syscall.Signal))
			}
		}
	}()
	// Reap every orphan (we may be pid 1) until the command itself ends.
	for {
		var ws unix.WaitStatus
		wpid, err := unix.Wait4(-1, &ws, 0, nil)
		if err == unix.EINTR {
			continue
		}
		if err != nil {
			return helperFail("wait", err)
		}
		if wpid != pid {
			continue
		}
		switch {
		case ws.Exited():
			return ws.ExitStatus()
		case ws.Signaled():
			return 128 + int(ws.Signal())
		}
	}
}

// loopbackUp brings up lo in the new network namespace (bwrap does this
// itself).
func loopbackUp() error {
	fd, err := unix.Socket(unix.AF_INET, unix.SOCK_DGRAM|unix.SOCK_CLOEXEC, 0)
	if err != nil {
		return err
	}
	defer unix.Close(fd)
	ifr, err := unix.NewIfreq("lo")
	if err != nil {
		return err
	}
	if err := unix.IoctlIfreq(fd, unix.SIOCGIFFLAGS, ifr); err != nil {
		return err
	}
	ifr.SetUint16(ifr.Uint16() | unix.IFF_UP)
	return unix.IoctlIfreq(fd, unix.SIOCSIFFLAGS, ifr)
}

// startConfined starts the command confined and returns its pid. A fresh
// OS thread, locked to this goroutine and never unlocked (so it ends with
// the goroutine and no other goroutine ever runs on it), drops its
// capabilities, sets no-new-privs and applies Landlock and seccomp — all of
// them per thread — and then forks the command, which inherits exactly
// that thread's confinement; the rest of this process (the reaper, the
// proxy bridge) stays as it was. The Go runtime never clones a new thread
// from a locked one, so the confinement cannot leak into a runtime thread.
// Order matters: capabilities go first (they need CAP_SETPCAP), then
// no-new-privs, Landlock, and seccomp last (it forbids nothing fork and
// exec need). Before this, a second start of the sentinel binary (stage 2)
// did the same and exec'd the command: its package initialisation was
// paid by every sandboxed command.
func startConfined(sp Spec, argv []string) (int, error) {
	type started struct {
		pid int
		err error
	}
	done := make(chan started, 1)
	go func() {
		runtime.LockOSThread() // never unlocked: the thread exits with this goroutine
		pid, err := confineAndStart(sp, argv)
		done <- started{pid, err}
	}()
	r := <-done
	return r.pid, r.err
}

func confineAndStart(sp Spec, argv []string) (int, error) {
	path, err := exec.LookPath(argv[0])
	if err != nil {
		return 0, fmt.Errorf("%s: command not found in the sandbox (is it readable here? add its directory with --read): %w", argv[0], exec.ErrNotFound)
	}
	if err := dropCapabilities(); err != nil {
		return 0, fmt.Errorf("drop capabilities: %w", err)
	}
	if err := unix.Prctl(unix.PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0); err != nil {
		return 0, fmt.Errorf("no-new-privs: %w", err)
	}
	if err := restrictLandlock(sp); err != nil {
		return 0, fmt.Errorf("landlock: %w", err)
	}
	if err := installSeccomp(); err != nil {
		return 0, fmt.Errorf("seccomp: %w", err)
	}
	if len(sp.Denied) > 0 { // the witness of refusals (execdeny_notify_linux.go)
		if err := startExecWatch(sp); err != nil {
			return 0, fmt.Errorf("seccomp: %w", err)
		}
	}
	// The bare fork and exec: the command gets stdin, stdout and stderr
	// only. Every other descriptor is close-on-exec first: the proxy
	// directory's, and whatever the person's shell left open without it,
	// which Sentinel, bwrap and this helper inherited (a write through a
	// descriptor opened outside is never checked by Landlock).
	if err := closeOnExecFrom(3); err != nil {
		return 0, fmt.Errorf("close inherited descriptors: %w", err)
	}
	pid, err := syscall.ForkExec(path, argv, &syscall.ProcAttr{
		Env:   os.Environ(),
		Files: []uintptr{0, 1, 2},
	})
	if err != nil {
		return 0, fmt.Errorf("exec %s: %w", path, err)
	}
	return pid, nil
}

// limitPids joins the sandbox's pids cgroup (writing 0 to its cgroup.procs
// moves the writer), so that the command and all it starts are counted
// there, and sets RLIMIT_NPROC, which in this user namespace counts its
// processes only.
func limitPids(sp Spec) error {
	if sp.PidsCgroup {
		_, err := unix.Write(pidsFD, []byte("0"))
		unix.Close(pidsFD)
		if err != nil {
			return fmt.Errorf("join the pids cgroup: %w", err)
		}
		if !sp.Report {
			unix.Close(reportFD) // a placeholder for fd 5's sake
		}
	}
	if sp.PidsMax > 0 {
		lim := unix.Rlimit{Cur: uint64(sp.PidsMax), Max: uint64(sp.PidsMax)}
		if err := unix.Setrlimit(unix.RLIMIT_NPROC, &lim); err != nil {
			return fmt.Errorf("RLIMIT_NPROC: %w", err)
		}
	}
	return nil
}
