package service

import (
	"context"
	"os"
	"strings"
	"time"

	"github.com/shirou/gopsutil/v4/common"
	"github.com/shirou/gopsutil/v4/process"

	"github.com/sentinelhq/sentinel/runner/agents"
)

// Proc is one process as /proc shows it (read through gopsutil).
type Proc struct {
	PID     int32
	PPID    int32
	UID     int
	Start   int64 // creation time, ms since the epoch: with PID, the process's identity
	Comm    string
	Exe     string
	Argv    []string
	Program string // the agent it is (agents.Identify); "" for any other process
}

// StartTime is when the process started.
func (p *Proc) StartTime() time.Time { return time.UnixMilli(p.Start).UTC() }

// procTable is one scan of the machine's processes: every process's
// parent (for the pid tree) and, for this user's processes, who they are.
type procTable map[int32]*Proc

// readProcs reads every process. Another user's processes are kept for the
// tree (their parent) but never read further: they are not ours to
// attribute or end.
func readProcs(ctx context.Context) (procTable, error) {
	ctx = realProc(ctx)
	ps, err := process.ProcessesWithContext(ctx)
	if err != nil {
		return nil, err
	}
	me := os.Getuid()
	out := make(procTable, len(ps))
	for _, p := range ps {
		ppid, err := p.PpidWithContext(ctx)
		if err != nil {
			continue // gone already
		}
		pr := &Proc{PID: p.Pid, PPID: ppid, UID: -1}
		out[p.Pid] = pr
		uids, err := p.UidsWithContext(ctx)
		if err != nil || len(uids) < 2 {
			continue
		}
		pr.UID = int(uids[1]) // effective
		if pr.UID != me || int(uids[0]) != me {
			continue
		}
		pr.Comm, _ = p.NameWithContext(ctx)
		pr.Exe, _ = p.ExeWithContext(ctx)
		pr.Exe = strings.TrimSuffix(pr.Exe, " (deleted)")
		pr.Argv, _ = p.CmdlineSliceWithContext(ctx)
		if len(pr.Argv) == 0 && pr.Exe == "" {
			continue // a kernel thread or a zombie
		}
		if a := agents.Identify(pr.Exe, pr.Comm, pr.Argv); a != nil {
			pr.Program = a.Name
		}
		if pr.Program != "" && !inScope(pr) {
			pr.Program = ""
		}
		if pr.Program != "" {
			pr.Start, _ = p.CreateTimeWithContext(ctx)
		}
	}
	return out, nil
}

// startOf is pid's creation time now (ms since the epoch) and whether the
// process exists.
func startOf(ctx context.Context, pid int32) (int64, bool) {
	ctx = realProc(ctx)
	p, err := process.NewProcessWithContext(ctx, pid)
	if err != nil {
		return 0, false
	}
	t, err := p.CreateTimeWithContext(ctx)
	if err != nil {
		return 0, false
	}
	return t, true
}

// uidOf is pid's real and effective uid.
func uidOf(ctx context.Context, pid int32) (real, eff int, ok bool) {
	ctx = realProc(ctx)
	p, err := process.NewProcessWithContext(ctx, pid)
	if err != nil {
		return 0, 0, false
	}
	u, err := p.UidsWithContext(ctx)
	if err != nil || len(u) < 2 {
		return 0, 0, false
	}
	return int(u[0]), int(u[1]), true
}

// ancestors is pid's chain of parents, nearest first, as far as the table
// knows (a loop or a missing parent ends it).
func (t procTable) ancestors(pid int32) []int32 {
	var out []int32
	seen := map[int32]bool{pid: true}
	for p := t[pid]; p != nil && p.PPID > 0 && !seen[p.PPID]; p = t[p.PPID] {
		seen[p.PPID] = true
		out = append(out, p.PPID)
	}
	return out
}

// children lists pid's direct children.
func (t procTable) children(pid int32) []*Proc {
	var out []*Proc
	for _, p := range t {
		if p.PPID == pid {
			out = append(out, p)
		}
	}
	return out
}

// realProc pins gopsutil to this machine's /proc and /sys: it would
// otherwise follow HOST_PROC and HOST_SYS from the environment, and what
// the service believes about processes must come from the kernel, not from
// a variable.
func realProc(ctx context.Context) context.Context {
	return context.WithValue(ctx, common.EnvKey, common.EnvMap{
		common.HostProcEnvKey: "/proc", common.HostSysEnvKey: "/sys", common.HostEtcEnvKey: "/etc",
		common.HostVarEnvKey: "/var", common.HostRunEnvKey: "/run", common.HostDevEnvKey: "/dev"})
}
