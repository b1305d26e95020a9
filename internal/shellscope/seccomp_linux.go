package shellscope

import (
	"fmt"

	"github.com/sentinelhq/sentinel/sandbox/inside"
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
// processes (the filter cannot tell whose a pid is). A call of a foreign
// ABI (32-bit, x32) is answered ENOSYS, as the sandbox's own filter
// answers it (sandbox/inside, whose assembler this uses).

const (
	bpfLd  = unix.BPF_LD | unix.BPF_W | unix.BPF_ABS
	bpfJeq = unix.BPF_JMP | unix.BPF_JEQ | unix.BPF_K
	bpfRet = unix.BPF_RET | unix.BPF_K
)

// argLo is the offset in seccomp_data of argument i's low word (the
// little-endian hosts this builds for): pids, which and who are 32 bits.
func argLo(i int) uint32 { return 16 + 8*uint32(i) }

// refuseOtherProcesses installs the filter on the calling thread (locked
// by Main; no-new-privs is already set by enter).
func refuseOtherProcesses() error {
	b := inside.NewBPF()
	b.Jump(bpfJeq, unix.SYS_PRLIMIT64, "prlimit", "")
	b.Jump(bpfJeq, unix.SYS_SETPRIORITY, "setpriority", "")
	b.Jump(bpfJeq, unix.SYS_IOPRIO_SET, "ioprio", "")
	b.Jump(bpfJeq, unix.SYS_SCHED_SETPARAM, "pid0", "")
	b.Jump(bpfJeq, unix.SYS_SCHED_SETSCHEDULER, "pid0", "")
	b.Jump(bpfJeq, unix.SYS_SCHED_SETATTR, "pid0", "allow")

	b.Label("prlimit") // prlimit64(pid, resource, new, old): pid 0, or no new limit
	b.Op(bpfLd, argLo(0))
	b.Jump(bpfJeq, 0, "allow", "")
	b.Op(bpfLd, argLo(2))
	b.Jump(bpfJeq, 0, "", "eperm")
	b.Op(bpfLd, argLo(2)+4)
	b.Jump(bpfJeq, 0, "allow", "eperm")

	b.Label("setpriority") // setpriority(PRIO_PROCESS, 0, _)
	b.Op(bpfLd, argLo(0))
	b.Jump(bpfJeq, unix.PRIO_PROCESS, "who0", "eperm")
	b.Label("ioprio") // ioprio_set(IOPRIO_WHO_PROCESS, 0, _)
	b.Op(bpfLd, argLo(0))
	b.Jump(bpfJeq, ioprioWhoProcess, "who0", "eperm")
	b.Label("who0")
	b.Op(bpfLd, argLo(1))
	b.Jump(bpfJeq, 0, "allow", "eperm")

	b.Label("pid0") // sched_set*(0, ...)
	b.Op(bpfLd, argLo(0))
	b.Jump(bpfJeq, 0, "allow", "eperm")

	b.Label("allow")
	b.Op(bpfRet, unix.SECCOMP_RET_ALLOW)
	b.Label("eperm")
	b.Op(bpfRet, unix.SECCOMP_RET_ERRNO|uint32(unix.EPERM))
	if err := b.Install(); err != nil {
		return fmt.Errorf("seccomp filter: %w", err)
	}
	return nil
}

// ioprioWhoProcess is IOPRIO_WHO_PROCESS (linux/ioprio.h).
const ioprioWhoProcess = 1
