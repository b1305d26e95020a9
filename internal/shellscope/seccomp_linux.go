package shellscope

import (
	"fmt"
	"runtime"
	"unsafe"

	"golang.org/x/sys/unix"
)

// Calls on another process that Landlock does not scope. The signal scope
// refuses a command's signals (kill, tgkill, pidfd_send_signal, SIGIO) to
// the agent and the hooks, and Landlock's ptrace rule (a process reaches
// only its own domain and those below) refuses ptrace and everything
// the kernel checks as ptrace access: process_vm_readv/writev,
// pidfd_getfd, kcmp, process_madvise, /proc/PID/mem, move_pages,
// migrate_pages, perf_event_open on a pid. What the kernel lets any
// process of the same user do to another WITHOUT asking Landlock:
//
//   - prlimit64(pid, _, new, _): lower the agent's RLIMIT_NPROC or
//     RLIMIT_NOFILE so its next hook start fails (EAGAIN, EMFILE), Codex
//     then runs the call, and raise it back.
//   - setpriority(PRIO_PROCESS pid | PRIO_PGRP | PRIO_USER), and
//     sched_setscheduler/sched_setparam/sched_setattr(pid): nice 19 or
//     SCHED_IDLE on the agent and each hook, with a command hogging the
//     CPUs, so a hook runs past the agent's hook timeout (an agent that
//     lets a timed-out hook's call run).
//   - ioprio_set(another process, group or user): the idle I/O class, the
//     same starvation on disk.
//   - sched_setaffinity(pid): pins the agent to one CPU; alone it only
//     slows it (the fair share stays), and programs name their own threads
//     by tid for it (pthread_setaffinity_np, OpenMP), so it stays allowed.
//
// So an agent-started shell (a command's or a hook's, and all they start:
// the filter is inherited and cannot be removed) gets a seccomp filter
// that answers EPERM to the first four kinds when they name anything but
// the caller itself (pid or who 0; prlimit64 that only reads is allowed).
// `ulimit`, `nice CMD`, `ionice -c3 CMD`, `chrt CMD` and `prlimit CMD` name
// the caller as 0 and still work; `renice -p PID`, `prlimit --pid PID`,
// `ionice -p PID` and `chrt -p PID` are refused, even on the command's own
// processes (the filter cannot tell whose a pid is). A foreign syscall
// ABI (x32 on amd64: masked to the same numbers; i386 on amd64: its own
// numbers) gets the same answers; any other ABI is killed.

// seccomp_data offsets: nr, arch, then each argument as 8 bytes (the low
// word first on the little-endian hosts this builds for).
const (
	offNR   = 0
	offArch = 4
)

func offArgLo(i int) uint32 { return 16 + 8*uint32(i) }

// x32Bit marks an x32 syscall on amd64; its numbers are otherwise amd64's.
const x32Bit = 0x40000000

// refusedCalls are, per syscall ABI, the numbers of the calls the filter
// looks at.
type refusedCalls struct {
	arch                                                    uint32
	prlimit64, setpriority, ioprioSet                       uint32
	schedSetparam, schedSetscheduler, schedSetattr, x32Mask uint32
}

// abis are the syscall ABIs a process on this host may use, native first.
func abis() []refusedCalls {
	switch runtime.GOARCH {
	case "amd64":
		return []refusedCalls{
			{arch: unix.AUDIT_ARCH_X86_64, prlimit64: 302, setpriority: 141, ioprioSet: 251,
				schedSetparam: 142, schedSetscheduler: 144, schedSetattr: 314, x32Mask: x32Bit},
			{arch: unix.AUDIT_ARCH_I386, prlimit64: 340, setpriority: 97, ioprioSet: 289,
				schedSetparam: 154, schedSetscheduler: 156, schedSetattr: 351},
		}
	case "arm64":
		return []refusedCalls{{arch: unix.AUDIT_ARCH_AARCH64, prlimit64: 261, setpriority: 140, ioprioSet: 30,
			schedSetparam: 118, schedSetscheduler: 119, schedSetattr: 274}}
	}
	return nil
}

const (
	retAllow = unix.SECCOMP_RET_ALLOW
	retEPERM = unix.SECCOMP_RET_ERRNO | uint32(unix.EPERM)
	retKill  = unix.SECCOMP_RET_KILL_PROCESS
)

func ld(off uint32) unix.SockFilter {
	return unix.SockFilter{Code: unix.BPF_LD | unix.BPF_W | unix.BPF_ABS, K: off}
}
func jeq(k uint32, jt, jf uint8) unix.SockFilter {
	return unix.SockFilter{Code: unix.BPF_JMP | unix.BPF_JEQ | unix.BPF_K, K: k, Jt: jt, Jf: jf}
}
func ret(k uint32) unix.SockFilter { return unix.SockFilter{Code: unix.BPF_RET | unix.BPF_K, K: k} }

// callerOnly is the check of one call: allowed when each (argument, value)
// pair holds (the argument's low word: pids and `which` are 32 bits), else
// EPERM.
func callerOnly(nr uint32, pairs ...[2]uint32) []unix.SockFilter {
	n := len(pairs)
	var body []unix.SockFilter
	for i, p := range pairs { // a pair that does not hold jumps to the EPERM at 2n+1
		body = append(body, ld(offArgLo(int(p[0]))), jeq(p[1], 0, uint8(2*n-2*i-1)))
	}
	body = append(body, ret(retAllow), ret(retEPERM))
	return append([]unix.SockFilter{jeq(nr, 0, uint8(len(body)))}, body...)
}

// prlimitCheck allows prlimit64 on pid 0 or with no new limit (a read).
func prlimitCheck(nr uint32) []unix.SockFilter {
	return []unix.SockFilter{
		jeq(nr, 0, 8),
		ld(offArgLo(0)), jeq(0, 5, 0), // pid 0: the caller
		ld(offArgLo(2)), jeq(0, 0, 2), // new limit's low word
		ld(offArgLo(2) + 4), jeq(0, 1, 0), // and high word: NULL, a read
		ret(retEPERM),
		ret(retAllow),
	}
}

// filterFor is the program for abis: per ABI, each call's check, then
// allow; an ABI not listed is killed.
func filterFor(list []refusedCalls) []unix.SockFilter {
	var sections [][]unix.SockFilter
	for _, a := range list {
		s := []unix.SockFilter{ld(offNR)}
		if a.x32Mask != 0 {
			s = append(s, unix.SockFilter{Code: unix.BPF_ALU | unix.BPF_AND | unix.BPF_K, K: ^a.x32Mask})
		}
		s = append(s, prlimitCheck(a.prlimit64)...)
		s = append(s, callerOnly(a.setpriority, [2]uint32{0, unix.PRIO_PROCESS}, [2]uint32{1, 0})...)
		s = append(s, callerOnly(a.ioprioSet, [2]uint32{0, 1 /* IOPRIO_WHO_PROCESS */}, [2]uint32{1, 0})...)
		for _, nr := range []uint32{a.schedSetparam, a.schedSetscheduler, a.schedSetattr} {
			s = append(s, callerOnly(nr, [2]uint32{0, 0})...)
		}
		sections = append(sections, append(s, ret(retAllow)))
	}
	// The head: load arch, one jump per ABI to its section.
	prog := []unix.SockFilter{ld(offArch)}
	skip := 0 // instructions of the sections before the one jumped to
	for i, a := range list {
		prog = append(prog, jeq(a.arch, uint8(len(list)-i+skip), 0))
		skip += len(sections[i])
	}
	prog = append(prog, ret(retKill))
	for _, s := range sections {
		prog = append(prog, s...)
	}
	return prog
}

// refuseOtherProcesses installs the filter on the calling thread (locked
// by Main; no-new-privs is already set by enter).
func refuseOtherProcesses() error {
	list := abis()
	if len(list) == 0 {
		return fmt.Errorf("no seccomp filter for %s", runtime.GOARCH)
	}
	prog := filterFor(list)
	fp := unix.SockFprog{Len: uint16(len(prog)), Filter: &prog[0]}
	if err := unix.Prctl(unix.PR_SET_SECCOMP, unix.SECCOMP_MODE_FILTER, uintptr(unsafe.Pointer(&fp)), 0, 0); err != nil {
		return fmt.Errorf("seccomp filter: %w", err)
	}
	return nil
}
