package inside

import (
	"encoding/hex"
	"encoding/json"
	"fmt"
	"hash/crc64"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"syscall"
	"unsafe"

	"golang.org/x/sys/unix"
)

// The exec watcher: with a deny list, the helper also installs a seccomp
// filter that hands every execve and execveat to it (seccomp user
// notification). It is the witness, not the wall: Landlock refuses the
// denied files whatever the watcher sees (the sandbox's execdeny.go says why the wall
// cannot be seccomp). For each exec it reads the path the process named,
// and when that is a denied file (same inode) or a copy of one (same size
// and content sum: a copy brought in some other way, such as downloaded), it
// answers EACCES itself and reports the refusal on reportFD, which Sentinel
// journals (Options.OnExecDeny). Everything else continues to the kernel,
// where Landlock decides. What it reads can be changed by the process
// after it looked; a path it cannot read, or a file it cannot open,
// continues to the kernel too: the watcher may miss a refusal, and the
// content match of a brought-in copy is best effort, but it never lets
// through what Landlock refuses.
//
// Cost: each exec inside a sandbox with a deny list waits for one round
// trip to the helper (a read of /proc/PID/mem and a stat; a hash only for
// a file the size of a denied one). Without a deny list nothing changes.

// reportFD is where the sandbox's Sandbox.Command puts the write end of the refusal
// reports (fd 3 is the proxy directory's).
const reportFD = 4

// The kernel's seccomp_notif and seccomp_notif_resp (uapi/linux/seccomp.h).
type notifData struct {
	Nr   int32
	Arch uint32
	IP   uint64
	Args [6]uint64
}

type seccompNotif struct {
	ID    uint64
	Pid   uint32
	Flags uint32
	Data  notifData
}

type seccompNotifResp struct {
	ID    uint64
	Val   int64
	Error int32
	Flags uint32
}

// execWatchFilter sends execve and execveat of the native architecture to
// the watcher (the main filter answers every foreign call).
func execWatchFilter() ([]unix.SockFilter, error) {
	p := &bpfProg{jumps: map[int][2]string{}, labels: map[string]int{}}
	p.op(bpfLdAbs, offArch)
	p.jump(bpfJeq, seccompArch, "", "allow")
	p.op(bpfLdAbs, offNr)
	p.jump(bpfJeq, unix.SYS_EXECVE, "notify", "")
	p.jump(bpfJeq, unix.SYS_EXECVEAT, "notify", "allow")
	p.label("notify")
	p.op(bpfRet, unix.SECCOMP_RET_USER_NOTIF)
	p.label("allow")
	p.op(bpfRet, retAllow)
	return p.assemble()
}

// installExecWatch loads the watch filter on the calling thread and returns
// the listener (close-on-exec, so the command never holds it).
func installExecWatch() (int, error) {
	ins, err := execWatchFilter()
	if err != nil {
		return -1, err
	}
	prog := unix.SockFprog{Len: uint16(len(ins)), Filter: &ins[0]}
	fd, _, e := unix.Syscall(unix.SYS_SECCOMP, unix.SECCOMP_SET_MODE_FILTER, unix.SECCOMP_FILTER_FLAG_NEW_LISTENER, uintptr(unsafe.Pointer(&prog)))
	if e != 0 {
		return -1, fmt.Errorf("exec watch filter: %w", e)
	}
	return int(fd), nil
}

// HashFile is a file's content sum, a DeniedFile's Sum: the watcher knows
// a copy of a denied file by it (with its size). A CRC-64, not a
// cryptographic hash, and that is enough: someone who wants a copy to run
// changes a byte of it, which no hash stops, and a file made to match a
// denied one is only refused. crypto/sha256 here linked the whole FIPS
// module into sentinel-helper, whose start every hook and sandboxed
// command pays (its 32 MB DRBG buffer alone costs a page-fault-heavy
// pointer mask at start-up): about a tenth of a hook's cost.
func HashFile(f *os.File) (string, error) {
	h := crc64.New(crc64.MakeTable(crc64.ECMA))
	if _, err := io.Copy(h, f); err != nil {
		return "", err
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// execWatcher answers the listener's notifications until it closes.
type execWatcher struct {
	fd     int
	denied []DeniedFile
	report *os.File // nil: no one to tell
}

// The watcher runs in a process of its own (the helper binary once more,
// stage "watch"), never in the helper that starts the command: Go starts
// a command with vfork, and the thread doing so holds its scheduler slot
// until the command's execve returns — which waits for the watcher. A
// watcher in the same process deadlocked whenever the garbage collector
// stopped the world meanwhile (found by measuring: one start in thirty
// hung). The watcher gets the listener as fd 3 and the reports as fd 4,
// and dies with the helper.
const (
	watchListenerFD = 3
	watchArg        = "watch"
)

// startExecWatch loads the watch filter on the calling (locked, confined)
// thread and starts the watcher process from another goroutine, so it is
// forked from a thread without the filters.
func startExecWatch(sp Spec) error {
	fd, err := installExecWatch()
	if err != nil {
		return err
	}
	// The helper keeps neither: closed before the command starts, so the
	// command never holds them.
	listener := os.NewFile(uintptr(fd), "exec watch listener")
	defer listener.Close()
	files := []*os.File{os.Stdin, os.Stdout, os.Stderr, listener}
	if sp.Report {
		report := os.NewFile(reportFD, "exec refusals")
		defer report.Close()
		files = append(files, report)
	}
	js, err := json.Marshal(sp.Denied)
	if err != nil {
		return err
	}
	done := make(chan error, 1)
	go func() {
		_, err := os.StartProcess("/proc/self/exe", []string{"sentinel-exec-watch", Arg, watchArg, string(js)},
			&os.ProcAttr{Files: files, Sys: &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}})
		done <- err
	}()
	if err := <-done; err != nil {
		return fmt.Errorf("start the exec watcher: %w", err)
	}
	return nil
}

// watchMain is the watcher process: it answers until the listener closes.
func watchMain(denied string) int {
	w := &execWatcher{fd: watchListenerFD}
	if err := json.Unmarshal([]byte(denied), &w.denied); err != nil {
		return helperFail("exec watcher", err)
	}
	unix.CloseOnExec(watchListenerFD)
	var st unix.Stat_t
	if unix.Fstat(reportFD, &st) == nil {
		unix.CloseOnExec(reportFD)
		w.report = os.NewFile(reportFD, "exec refusals")
	}
	w.run()
	return 0
}

func (w *execWatcher) run() {
	for {
		var req seccompNotif
		if _, _, e := unix.Syscall(unix.SYS_IOCTL, uintptr(w.fd), unix.SECCOMP_IOCTL_NOTIF_RECV, uintptr(unsafe.Pointer(&req))); e != 0 {
			if e == unix.EINTR || e == unix.ENOENT {
				continue // interrupted, or the caller died before we read it
			}
			return
		}
		resp := seccompNotifResp{ID: req.ID, Flags: unix.SECCOMP_USER_NOTIF_FLAG_CONTINUE}
		if d, ok := w.check(&req); ok {
			resp = seccompNotifResp{ID: req.ID, Error: -int32(unix.EACCES)}
			if w.report != nil {
				if b, err := json.Marshal(d); err == nil {
					w.report.Write(append(b, '\n'))
				}
			}
		}
		unix.Syscall(unix.SYS_IOCTL, uintptr(w.fd), unix.SECCOMP_IOCTL_NOTIF_SEND, uintptr(unsafe.Pointer(&resp)))
	}
}

// check says whether the exec in req runs a denied file or a copy of one.
func (w *execWatcher) check(req *seccompNotif) (ExecDenial, bool) {
	pid := int(req.Pid)
	a := req.Data.Args
	var dirfd int32 = unix.AT_FDCWD
	ptr, flags := a[0], uint64(0)
	if req.Data.Nr == unix.SYS_EXECVEAT {
		dirfd, ptr, flags = int32(a[0]), a[1], a[4]
	}
	name, err := readString(pid, ptr)
	if err != nil {
		return ExecDenial{}, false
	}
	// Still the same call of the same process: the pid was not reused.
	id := req.ID
	if _, _, e := unix.Syscall(unix.SYS_IOCTL, uintptr(w.fd), unix.SECCOMP_IOCTL_NOTIF_ID_VALID, uintptr(unsafe.Pointer(&id))); e != 0 {
		return ExecDenial{}, false
	}
	proc := "/proc/" + strconv.Itoa(pid)
	target := name
	switch {
	case name == "" && flags&unix.AT_EMPTY_PATH != 0:
		target = proc + "/fd/" + strconv.Itoa(int(dirfd))
	case filepath.IsAbs(name):
		target = proc + "/root" + name
	case dirfd == unix.AT_FDCWD:
		target = proc + "/cwd/" + name
	default:
		target = proc + "/fd/" + strconv.Itoa(int(dirfd)) + "/" + name
	}
	// O_PATH first: a fifo must not block the watcher.
	fd, err := unix.Open(target, unix.O_PATH|unix.O_CLOEXEC, 0)
	if err != nil {
		return ExecDenial{}, false
	}
	defer unix.Close(fd)
	var st unix.Stat_t
	if err := unix.Fstat(fd, &st); err != nil || st.Mode&unix.S_IFMT != unix.S_IFREG {
		return ExecDenial{}, false
	}
	for _, d := range w.denied {
		if d.Dev == st.Dev && d.Ino == st.Ino {
			return ExecDenial{Entry: d.Entry, Path: name, File: d.Path, Pid: pid}, true
		}
	}
	for _, d := range w.denied {
		if d.Size != st.Size || d.Sum == "" {
			continue
		}
		f, err := os.Open("/proc/self/fd/" + strconv.Itoa(fd))
		if err != nil {
			return ExecDenial{}, false
		}
		sum, err := HashFile(f)
		f.Close()
		if err != nil {
			return ExecDenial{}, false
		}
		for _, d2 := range w.denied {
			if d2.Size == st.Size && d2.Sum == sum {
				return ExecDenial{Entry: d2.Entry, Path: name, File: d2.Path, Copy: true, Pid: pid}, true
			}
		}
		break
	}
	return ExecDenial{}, false
}

// readString reads a NUL-terminated string (at most PATH_MAX) from the
// process's memory.
func readString(pid int, addr uint64) (string, error) {
	f, err := os.Open("/proc/" + strconv.Itoa(pid) + "/mem")
	if err != nil {
		return "", err
	}
	defer f.Close()
	buf := make([]byte, unix.PathMax)
	n, err := f.ReadAt(buf, int64(addr))
	if n == 0 && err != nil {
		return "", err
	}
	for i, b := range buf[:n] {
		if b == 0 {
			return string(buf[:i]), nil
		}
	}
	return "", fmt.Errorf("path longer than PATH_MAX")
}
