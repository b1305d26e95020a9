package inside

import (
	"encoding/binary"
	"testing"

	"golang.org/x/sys/unix"
)

// runBPF interprets the classic-BPF subset the filter uses against one
// seccomp_data record, so the filter's decisions are pinned on any kernel
// (this machine cannot even make a 32-bit call).
func runBPF(t *testing.T, prog []unix.SockFilter, data []byte) uint32 {
	t.Helper()
	var a uint32
	for pc := 0; pc < len(prog); pc++ {
		in := prog[pc]
		switch in.Code {
		case bpfLdAbs:
			a = binary.LittleEndian.Uint32(data[in.K:])
		case bpfAnd:
			a &= in.K
		case bpfJeq, bpfJge:
			ok := a == in.K
			if in.Code == bpfJge {
				ok = a >= in.K
			}
			if ok {
				pc += int(in.Jt)
			} else {
				pc += int(in.Jf)
			}
		case bpfRet:
			return in.K
		default:
			t.Fatalf("unexpected instruction %#x at %d", in.Code, pc)
		}
	}
	t.Fatal("filter fell off its end")
	return 0
}

func seccompData(arch uint32, nr int, args ...uint64) []byte {
	b := make([]byte, 64)
	binary.LittleEndian.PutUint32(b[0:], uint32(nr))
	binary.LittleEndian.PutUint32(b[4:], arch)
	for i, v := range args {
		binary.LittleEndian.PutUint64(b[16+8*i:], v)
	}
	return b
}

func TestSeccompFilterDecisions(t *testing.T) {
	prog, err := seccompFilter()
	if err != nil {
		t.Fatal(err)
	}
	errno := func(e unix.Errno) uint32 { return retErrno | uint32(e) }
	const i386Socket = 359
	atFDCWD := uint64(0xffffff9c) // AT_FDCWD as the low 32 bits the filter reads
	tests := []struct {
		name string
		arch uint32
		nr   int
		args []uint64
		want uint32
	}{
		{"read is allowed", seccompArch, unix.SYS_READ, nil, retAllow},
		{"unix socket is allowed", seccompArch, unix.SYS_SOCKET, []uint64{unix.AF_UNIX, unix.SOCK_STREAM}, retAllow},
		{"tcp socket is allowed (the netns has only loopback)", seccompArch, unix.SYS_SOCKET, []uint64{unix.AF_INET, unix.SOCK_STREAM | unix.SOCK_CLOEXEC}, retAllow},
		{"raw inet socket is refused", seccompArch, unix.SYS_SOCKET, []uint64{unix.AF_INET, unix.SOCK_RAW, unix.IPPROTO_ICMP}, errno(unix.EPERM)},
		{"raw inet6 socket is refused", seccompArch, unix.SYS_SOCKET, []uint64{unix.AF_INET6, unix.SOCK_RAW | unix.SOCK_NONBLOCK}, errno(unix.EPERM)},
		{"packet socket is refused", seccompArch, unix.SYS_SOCKET, []uint64{unix.AF_PACKET, unix.SOCK_RAW}, errno(unix.EAFNOSUPPORT)},
		{"netlink route is allowed", seccompArch, unix.SYS_SOCKET, []uint64{unix.AF_NETLINK, unix.SOCK_RAW, unix.NETLINK_ROUTE}, retAllow},
		{"netlink audit is refused", seccompArch, unix.SYS_SOCKET, []uint64{unix.AF_NETLINK, unix.SOCK_RAW, unix.NETLINK_AUDIT}, errno(unix.EPERM)},
		{"ptrace is refused", seccompArch, unix.SYS_PTRACE, nil, errno(unix.EPERM)},
		{"process_vm_readv is refused", seccompArch, unix.SYS_PROCESS_VM_READV, nil, errno(unix.EPERM)},
		{"io_uring_setup is refused", seccompArch, unix.SYS_IO_URING_SETUP, nil, errno(unix.EPERM)},
		{"mount is refused", seccompArch, unix.SYS_MOUNT, nil, errno(unix.EPERM)},
		{"unshare is refused", seccompArch, unix.SYS_UNSHARE, nil, errno(unix.EPERM)},
		{"TIOCSTI is refused", seccompArch, unix.SYS_IOCTL, []uint64{0, unix.TIOCSTI}, errno(unix.EPERM)},
		{"TIOCGWINSZ is allowed", seccompArch, unix.SYS_IOCTL, []uint64{0, unix.TIOCGWINSZ}, retAllow},
		{"fork-like clone is allowed", seccompArch, unix.SYS_CLONE, []uint64{uint64(unix.SIGCHLD)}, retAllow},
		{"clone into a new user namespace is refused", seccompArch, unix.SYS_CLONE, []uint64{unix.CLONE_NEWUSER | uint64(unix.SIGCHLD)}, errno(unix.EPERM)},
		{"clone3 looks absent", seccompArch, unix.SYS_CLONE3, nil, errno(unix.ENOSYS)},
		{"fchmodat to 0755 is allowed", seccompArch, unix.SYS_FCHMODAT, []uint64{atFDCWD, 0, 0o755}, retAllow},
		{"fchmodat to setuid is refused", seccompArch, unix.SYS_FCHMODAT, []uint64{atFDCWD, 0, 0o4755}, errno(unix.EPERM)},
		{"fchmodat to setgid is refused", seccompArch, unix.SYS_FCHMODAT, []uint64{atFDCWD, 0, 0o2755}, errno(unix.EPERM)},
		{"fchmodat2 to setuid is refused", seccompArch, unix.SYS_FCHMODAT2, []uint64{atFDCWD, 0, 0o4755, 0}, errno(unix.EPERM)},
		{"fchmod to setuid is refused", seccompArch, unix.SYS_FCHMOD, []uint64{3, 0o4711}, errno(unix.EPERM)},
		{"fchmod to 0600 is allowed", seccompArch, unix.SYS_FCHMOD, []uint64{3, 0o600}, retAllow},
		{"mknodat of a setuid file is refused", seccompArch, unix.SYS_MKNODAT, []uint64{atFDCWD, 0, unix.S_IFREG | 0o4755, 0}, errno(unix.EPERM)},
		{"openat creating a setuid file is refused", seccompArch, unix.SYS_OPENAT, []uint64{atFDCWD, 0, unix.O_WRONLY | unix.O_CREAT, 0o4755}, errno(unix.EPERM)},
		{"openat O_TMPFILE with setgid is refused", seccompArch, unix.SYS_OPENAT, []uint64{atFDCWD, 0, unix.O_WRONLY | unix.O_TMPFILE, 0o2755}, errno(unix.EPERM)},
		{"openat creating a plain file is allowed", seccompArch, unix.SYS_OPENAT, []uint64{atFDCWD, 0, unix.O_WRONLY | unix.O_CREAT | unix.O_TRUNC, 0o644}, retAllow},
		{"openat without O_CREAT ignores its mode", seccompArch, unix.SYS_OPENAT, []uint64{atFDCWD, 0, unix.O_RDONLY, 0o4755}, retAllow},
		{"openat2 looks absent (its mode is in memory)", seccompArch, unix.SYS_OPENAT2, nil, errno(unix.ENOSYS)},
		{"32-bit x86 socket call is refused", unix.AUDIT_ARCH_I386, i386Socket, []uint64{unix.AF_INET, unix.SOCK_STREAM}, errno(unix.ENOSYS)},
		{"32-bit x86 socketcall is refused", unix.AUDIT_ARCH_I386, 102, []uint64{1}, errno(unix.ENOSYS)},
		{"32-bit x86 read is refused too", unix.AUDIT_ARCH_I386, 3, nil, errno(unix.ENOSYS)},
	}
	if seccompArch == unix.AUDIT_ARCH_X86_64 {
		for _, tt := range []struct {
			name string
			nr   int
			args []uint64
			want uint32
		}{
			{"chmod to setuid is refused", 90, []uint64{0, 0o4755}, errno(unix.EPERM)},
			{"chmod to 0755 is allowed", 90, []uint64{0, 0o755}, retAllow},
			{"creat of a setuid file is refused", 85, []uint64{0, 0o4755}, errno(unix.EPERM)},
			{"mknod of a setuid file is refused", 133, []uint64{0, unix.S_IFREG | 0o4755, 0}, errno(unix.EPERM)},
			{"open creating a setuid file is refused", 2, []uint64{0, unix.O_WRONLY | unix.O_CREAT, 0o6755}, errno(unix.EPERM)},
			{"open without O_CREAT ignores its mode", 2, []uint64{0, unix.O_RDONLY, 0o6755}, retAllow},
		} {
			tests = append(tests, struct {
				name string
				arch uint32
				nr   int
				args []uint64
				want uint32
			}{tt.name, seccompArch, tt.nr, tt.args, tt.want})
		}
	}
	if archSyscallBit != 0 {
		tests = append(tests, struct {
			name string
			arch uint32
			nr   int
			args []uint64
			want uint32
		}{"x32 socket call is refused", seccompArch, archSyscallBit | 41, []uint64{unix.AF_INET, unix.SOCK_STREAM}, errno(unix.ENOSYS)})
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := runBPF(t, prog, seccompData(tt.arch, tt.nr, tt.args...)); got != tt.want {
				t.Errorf("filter answered %#x, want %#x", got, tt.want)
			}
		})
	}
}
