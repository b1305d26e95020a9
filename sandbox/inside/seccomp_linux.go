package inside

import (
	"fmt"
	"unsafe"

	"golang.org/x/sys/unix"
)

// The seccomp filter the helper installs on the thread that starts the
// command. It refuses (EPERM) debugging other processes (ptrace,
// process_vm_*), io_uring (which bypasses this filter), mounting, new
// namespaces, kernel keyrings, BPF, module and kexec calls, and terminal
// injection (TIOCSTI); it lets only unix, netlink
// route and non-raw inet sockets be made (the network namespace has nothing
// but loopback); and it answers every call of a foreign architecture (32-bit
// int 0x80 on x86-64, x32) with ENOSYS — a default-allow filter without that
// check lets a 32-bit socket call through.
//
// It also refuses (EPERM) giving a file the setuid or setgid bit — chmod,
// fchmod, fchmodat, fchmodat2, mknod(at), creat and open(at) with O_CREAT
// or O_TMPFILE — and answers openat2, whose mode the filter cannot read, with
// ENOSYS (callers fall back to openat). In place the coder writes the
// person's own files: a setuid copy of a shell it leaves there (as root, a
// setuid-root one) is a way in for every other local user, for good.
var deniedSyscalls = append([]uintptr{
	unix.SYS_PTRACE, unix.SYS_PROCESS_VM_READV, unix.SYS_PROCESS_VM_WRITEV,
	unix.SYS_IO_URING_SETUP, unix.SYS_IO_URING_ENTER, unix.SYS_IO_URING_REGISTER,
	unix.SYS_MOUNT, unix.SYS_UMOUNT2, unix.SYS_PIVOT_ROOT, unix.SYS_MOVE_MOUNT, unix.SYS_OPEN_TREE,
	unix.SYS_FSOPEN, unix.SYS_FSCONFIG, unix.SYS_FSMOUNT, unix.SYS_FSPICK, unix.SYS_MOUNT_SETATTR,
	unix.SYS_UNSHARE, unix.SYS_SETNS, unix.SYS_KEYCTL, unix.SYS_ADD_KEY, unix.SYS_REQUEST_KEY,
	unix.SYS_BPF, unix.SYS_PERF_EVENT_OPEN, unix.SYS_USERFAULTFD, unix.SYS_KEXEC_LOAD,
	unix.SYS_KEXEC_FILE_LOAD, unix.SYS_INIT_MODULE, unix.SYS_FINIT_MODULE, unix.SYS_DELETE_MODULE,
	unix.SYS_OPEN_BY_HANDLE_AT, unix.SYS_NAME_TO_HANDLE_AT, unix.SYS_ACCT, unix.SYS_SWAPON,
	unix.SYS_SWAPOFF, unix.SYS_REBOOT, unix.SYS_SYSLOG, unix.SYS_QUOTACTL, unix.SYS_PIDFD_GETFD,
}, archDeniedSyscalls...)

const (
	bpfLdAbs = unix.BPF_LD | unix.BPF_W | unix.BPF_ABS
	bpfJeq   = unix.BPF_JMP | unix.BPF_JEQ | unix.BPF_K
	bpfJge   = unix.BPF_JMP | unix.BPF_JGE | unix.BPF_K
	bpfAnd   = unix.BPF_ALU | unix.BPF_AND | unix.BPF_K
	bpfRet   = unix.BPF_RET | unix.BPF_K
	offNr    = 0
	offArch  = 4
	offArg0  = 16 // low 32 bits on little-endian machines
	offArg1  = 24
	offArg2  = 32
	offArg3  = 40
	// suidBits are the mode bits the coder may not set: S_ISUID, S_ISGID.
	suidBits = unix.S_ISUID | unix.S_ISGID
	// createFlags make open and openat create a file, and take a mode.
	createFlags = unix.O_CREAT | (unix.O_TMPFILE &^ unix.O_DIRECTORY)
	retAllow    = unix.SECCOMP_RET_ALLOW
	retErrno    = unix.SECCOMP_RET_ERRNO
	nsFlags     = unix.CLONE_NEWUSER | unix.CLONE_NEWNS | unix.CLONE_NEWNET | unix.CLONE_NEWPID | unix.CLONE_NEWIPC | unix.CLONE_NEWUTS | unix.CLONE_NEWCGROUP
	sockRaw     = unix.SOCK_RAW
	sockPkt     = unix.SOCK_PACKET
	typeMask    = 0xf
	tiocsti     = unix.TIOCSTI
	tioclinux   = unix.TIOCLINUX
)

// modeSyscall is a call that sets a file's mode, and the check of it: the
// argument that holds the mode ("modeN": argument N), or for an open, the
// one that holds the flags ("open-flagsN").
type modeSyscall struct {
	nr    uintptr
	check string
}

// modeSyscalls are the calls of every architecture that set a file's mode.
var modeSyscalls = []modeSyscall{
	{unix.SYS_FCHMOD, "mode1"}, {unix.SYS_FCHMODAT, "mode2"}, {unix.SYS_FCHMODAT2, "mode2"},
	{unix.SYS_MKNODAT, "mode2"}, {unix.SYS_OPENAT, "open-flags2"},
}

// bpfProg assembles instructions whose jumps name labels.
type bpfProg struct {
	ins    []unix.SockFilter
	jumps  map[int][2]string
	labels map[string]int
}

func (p *bpfProg) op(code uint16, k uint32) { p.ins = append(p.ins, unix.SockFilter{Code: code, K: k}) }

// jump adds a conditional jump; "" means the next instruction.
func (p *bpfProg) jump(code uint16, k uint32, ifTrue, ifFalse string) {
	p.jumps[len(p.ins)] = [2]string{ifTrue, ifFalse}
	p.op(code, k)
}

func (p *bpfProg) label(name string) { p.labels[name] = len(p.ins) }

func (p *bpfProg) assemble() ([]unix.SockFilter, error) {
	for i, j := range p.jumps {
		for n, l := range j {
			if l == "" {
				continue
			}
			t, ok := p.labels[l]
			if !ok || t <= i || t-i-1 > 255 {
				return nil, fmt.Errorf("bad jump to %q", l)
			}
			if n == 0 {
				p.ins[i].Jt = uint8(t - i - 1)
			} else {
				p.ins[i].Jf = uint8(t - i - 1)
			}
		}
	}
	return p.ins, nil
}

func seccompFilter() ([]unix.SockFilter, error) {
	p := &bpfProg{jumps: map[int][2]string{}, labels: map[string]int{}}
	p.op(bpfLdAbs, offArch)
	p.jump(bpfJeq, seccompArch, "", "enosys")
	p.op(bpfLdAbs, offNr)
	if archSyscallBit != 0 {
		p.jump(bpfJge, archSyscallBit, "enosys", "")
	}
	for _, nr := range deniedSyscalls {
		p.jump(bpfJeq, uint32(nr), "eperm", "")
	}
	p.jump(bpfJeq, unix.SYS_CLONE3, "enosys", "")  // flags live in memory: make libc fall back to clone
	p.jump(bpfJeq, unix.SYS_OPENAT2, "enosys", "") // its mode lives in memory: make callers fall back to openat
	for _, m := range append(modeSyscalls, archModeSyscalls...) {
		p.jump(bpfJeq, uint32(m.nr), m.check, "")
	}
	p.jump(bpfJeq, unix.SYS_SOCKET, "socket", "")
	p.jump(bpfJeq, unix.SYS_IOCTL, "ioctl", "")
	p.jump(bpfJeq, unix.SYS_CLONE, "clone", "")
	p.op(bpfRet, retAllow)

	p.label("socket")
	p.op(bpfLdAbs, offArg0)
	p.jump(bpfJeq, unix.AF_UNIX, "allow", "")
	p.jump(bpfJeq, unix.AF_NETLINK, "netlink", "")
	p.jump(bpfJeq, unix.AF_INET, "inet", "")
	p.jump(bpfJeq, unix.AF_INET6, "inet", "eafnosupport")
	p.label("netlink")
	p.op(bpfLdAbs, offArg2)
	p.jump(bpfJeq, unix.NETLINK_ROUTE, "allow", "eperm")
	p.label("inet")
	p.op(bpfLdAbs, offArg1)
	p.op(bpfAnd, typeMask)
	p.jump(bpfJeq, sockRaw, "eperm", "")
	p.jump(bpfJeq, sockPkt, "eperm", "allow")

	p.label("ioctl")
	p.op(bpfLdAbs, offArg1)
	p.jump(bpfJeq, tiocsti, "eperm", "")
	p.jump(bpfJeq, tioclinux, "eperm", "allow")

	p.label("clone")
	p.op(bpfLdAbs, cloneFlagsOffset)
	p.op(bpfAnd, nsFlags)
	p.jump(bpfJeq, 0, "allow", "eperm")

	// A creating open: its mode counts only when the flags say it creates.
	p.label("open-flags1")
	p.op(bpfLdAbs, offArg1)
	p.op(bpfAnd, createFlags)
	p.jump(bpfJeq, 0, "allow", "mode2")
	p.label("open-flags2")
	p.op(bpfLdAbs, offArg2)
	p.op(bpfAnd, createFlags)
	p.jump(bpfJeq, 0, "allow", "mode3")
	for _, m := range []struct {
		label string
		off   uint32
	}{{"mode1", offArg1}, {"mode2", offArg2}, {"mode3", offArg3}} {
		p.label(m.label)
		p.op(bpfLdAbs, m.off)
		p.op(bpfAnd, suidBits)
		p.jump(bpfJeq, 0, "allow", "eperm")
	}

	p.label("allow")
	p.op(bpfRet, retAllow)
	p.label("eperm")
	p.op(bpfRet, retErrno|uint32(unix.EPERM))
	p.label("enosys")
	p.op(bpfRet, retErrno|uint32(unix.ENOSYS))
	p.label("eafnosupport")
	p.op(bpfRet, retErrno|uint32(unix.EAFNOSUPPORT))
	return p.assemble()
}

// installSeccomp loads the filter on the calling thread; no-new-privs must
// already be set.
// SeccompFiltered reports whether this build has a seccomp filter for its
// architecture (the sandbox refuses to start without one).
func SeccompFiltered() bool { return seccompArch != 0 }

func installSeccomp() error {
	ins, err := seccompFilter()
	if err != nil {
		return err
	}
	prog := unix.SockFprog{Len: uint16(len(ins)), Filter: &ins[0]}
	return unix.Prctl(unix.PR_SET_SECCOMP, unix.SECCOMP_MODE_FILTER, uintptr(unsafe.Pointer(&prog)), 0, 0)
}
