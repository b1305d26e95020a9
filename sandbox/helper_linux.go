package sandbox

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"os/signal"
	"runtime"
	"strconv"
	"syscall"

	"golang.org/x/sys/unix"
)

// HelperMain runs inside the namespaces. Stage 1 (pid 1 of the ns backend,
// pid 2 under bwrap) builds the mounts (ns backend), brings up loopback,
// runs the proxy forwarder and starts stage 2, then waits and passes on the
// exit status. Stage 2 drops capabilities, sets no-new-privs, applies
// Landlock and seccomp and execs the command; it never returns on success.
func HelperMain(args []string) int {
	if len(args) >= 3 && args[0] == "stage0" && args[1] == "--" {
		return stage0(args[2:])
	}
	if len(args) < 4 || args[2] != "--" {
		fmt.Fprintln(os.Stderr, "sentinel sandbox helper: internal use only")
		return 125
	}
	var sp helperSpec
	if err := json.Unmarshal([]byte(args[1]), &sp); err != nil {
		return helperFail("bad spec", err)
	}
	argv := args[3:]
	switch args[0] {
	case "stage1":
		return stage1(sp, args[1], argv)
	case "stage2":
		err := stage2(sp, argv)
		if errors.Is(err, exec.ErrNotFound) {
			fmt.Fprintf(os.Stderr, "sentinel sandbox: %v\n", err)
			return 127
		}
		return helperFail("enforce", err)
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

// proxyFD is where Sandbox.Command puts the proxy socket's directory.
const proxyFD = 3

func stage1(sp helperSpec, rawSpec string, argv []string) int {
	if sp.Backend == ModeNS {
		if err := applyMounts(planMounts(sp), sp.Root); err != nil {
			return helperFail("mounts", err)
		}
		if err := loopbackUp(); err != nil {
			return helperFail("loopback", err)
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
	c := exec.Command("/proc/self/exe", append([]string{HelperArg, "stage2", rawSpec, "--"}, argv...)...)
	c.Stdin, c.Stdout, c.Stderr = os.Stdin, os.Stdout, os.Stderr
	if err := c.Start(); err != nil {
		return helperFail("start", err)
	}
	pid := c.Process.Pid
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

// startForwarder listens on the namespace's loopback and passes each
// connection to Sentinel's proxy socket, reached through the inherited
// directory descriptor (its path may be hidden inside).
func startForwarder(port int) error {
	unix.CloseOnExec(proxyFD)
	target := "/proc/self/fd/" + strconv.Itoa(proxyFD) + "/proxy.sock"
	ln, err := net.Listen("tcp", net.JoinHostPort("127.0.0.1", strconv.Itoa(port)))
	if err != nil {
		return err
	}
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			go func() {
				defer c.Close()
				up, err := net.Dial("unix", target)
				if err != nil {
					return
				}
				defer up.Close()
				done := make(chan struct{}, 2)
				go func() { io.Copy(up, c); up.(*net.UnixConn).CloseWrite(); done <- struct{}{} }()
				go func() { io.Copy(c, up); c.(*net.TCPConn).CloseWrite(); done <- struct{}{} }()
				<-done
				<-done
			}()
		}
	}()
	return nil
}

// stage2 confines this thread and execs the command. Order matters:
// capabilities go first (they need CAP_SETPCAP), then no-new-privs, Landlock,
// and seccomp last (it forbids nothing execve needs).
func stage2(sp helperSpec, argv []string) error {
	runtime.LockOSThread() // never unlocked: the rules are per thread until exec
	path, err := exec.LookPath(argv[0])
	if err != nil {
		return fmt.Errorf("%s: command not found in the sandbox (is it readable here? add its directory with --read): %w", argv[0], exec.ErrNotFound)
	}
	if err := dropCapabilities(); err != nil {
		return fmt.Errorf("drop capabilities: %w", err)
	}
	if err := unix.Prctl(unix.PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0); err != nil {
		return fmt.Errorf("no-new-privs: %w", err)
	}
	if err := restrictLandlock(sp); err != nil {
		return fmt.Errorf("landlock: %w", err)
	}
	if err := installSeccomp(); err != nil {
		return fmt.Errorf("seccomp: %w", err)
	}
	err = syscall.Exec(path, argv, os.Environ())
	return fmt.Errorf("exec %s: %w", path, err)
}
