#!/usr/bin/env python3
"""The CPU of every process a command starts, by program name, from the
kernel's process accounting (issue 33: which agent CLI starts, sentinel
runs, git and tmux processes a test package's CPU goes to).

    python3 docs/measure/process-cpu.py [--starts] [--own] -- COMMAND…

Turns on BSD process accounting (acct(2), needs root and a kernel with
CONFIG_BSD_PROCESS_ACCT_V3) into a file of its own for the life of COMMAND,
then prints, most CPU first: program name (the kernel's 15-character comm),
processes that exited, CPU seconds (user+sys) in all, and per process the
median and the largest. Accounting is machine-wide: run it when no other
test runs (the e2e lock) and read the totals of processes others may start
(go, git) with that in mind. A record carries the name of the last thread
of the process to exit: claude and opencode (Bun programs) mostly end on a
thread of Bun's (JITWorker, HeapHelper, Bun Pool 0, ...), so those names
are counted together as "bun: claude/opencode"; gemini and codex's
launcher are "node". --starts also prints each agent CLI process with its
start time, CPU and wall time. --own counts only COMMAND's own processes
and their descendants, whatever else runs on the machine: this script
becomes a child subreaper (prctl PR_SET_CHILD_SUBREAPER), so a process
that daemonizes (a tmux server) or outlives its parent is reparented to
it, and a record is kept when its parent chain (the ppid each record
carries at exit) reaches COMMAND's pid or this script's own.
"""
import ctypes
import os
import statistics
import struct
import subprocess
import sys
import tempfile
import time

AHZ = 100  # acct_v3's clock ticks per second
REC = struct.Struct("<BBHIIIIIIfHHHHHHHH16s")  # struct acct_v3, 64 bytes
AGENTS = ("claude", "opencode", "gemini", "codex", "node")
BUN = "bun: claude/opencode"
BUN_THREADS = ("JITWorker", "HeapHelper", "JSCWarmUp", "fs.watch", "HTTP Client", "mi-scavenger",
               "notify-rs", "fff-bg", "Bun Pool", "File Watcher", "t Helper Thread",
               "claude", "opencode")


def comp(c):
    """comp_t: a 13-bit mantissa and a 3-bit base-8 exponent."""
    return (c & 0x1FFF) << (3 * ((c >> 13) & 7))


def records(path):
    with open(path, "rb") as f:
        data = f.read()
    for off in range(0, len(data) - REC.size + 1, REC.size):
        r = REC.unpack_from(data, off)
        if r[1] != 3:
            sys.exit(f"process-cpu: {path}: accounting record version {r[1]}, want 3 (CONFIG_BSD_PROCESS_ACCT_V3)")
        yield {
            "pid": r[6], "ppid": r[7], "btime": r[8], "etime": r[9] / AHZ,
            "cpu": (comp(r[10]) + comp(r[11])) / AHZ,
            "comm": program(r[18].split(b"\0")[0].decode(errors="replace")),
        }


def program(comm):
    """comm, or BUN for the Bun programs' own names and their threads';
    a Go test binary (claude.test, the e2e/claude package's) is itself."""
    if comm.endswith(".test"):
        return comm
    return BUN if comm.startswith(BUN_THREADS) else comm


PR_SET_CHILD_SUBREAPER = 36


def descendants(recs, roots):
    """The records whose parent chain reaches one of roots (pids)."""
    parent = {r["pid"]: r["ppid"] for r in recs}
    memo = {}

    def reaches(pid):
        seen = []
        while pid not in memo:
            if pid in roots:
                memo[pid] = True
                break
            if pid not in parent or pid in seen:
                memo[pid] = False
                break
            seen.append(pid)
            pid = parent[pid]
        for q in seen:
            memo[q] = memo[pid]
        return memo[pid]

    return [r for r in recs if r["pid"] in roots or reaches(r["ppid"])]


def main():
    args = sys.argv[1:]
    starts = "--starts" in args
    own = "--own" in args
    if "--" not in args or not args[args.index("--") + 1:]:
        sys.exit(__doc__)
    cmd = args[args.index("--") + 1:]
    libc = ctypes.CDLL(None, use_errno=True)
    fd, path = tempfile.mkstemp(prefix="process-cpu-")
    os.close(fd)
    if libc.acct(path.encode()) != 0:
        sys.exit(f"process-cpu: acct: {os.strerror(ctypes.get_errno())} (needs root)")
    if own and libc.prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) != 0:
        sys.exit(f"process-cpu: prctl: {os.strerror(ctypes.get_errno())}")
    t0 = time.time()
    try:
        p = subprocess.Popen(cmd)
        rc = p.wait()
    finally:
        libc.acct(None)
    wall = time.time() - t0
    recs = list(records(path))
    os.remove(path)
    if own:
        recs = descendants(recs, {p.pid, os.getpid()})
    by = {}
    for r in recs:
        by.setdefault(r["comm"], []).append(r["cpu"])
    total = sum(r["cpu"] for r in recs)
    where = "COMMAND and its descendants" if own else "machine-wide"
    print(f"{wall:.0f} s wall, {total:.1f} CPU-s in {len(recs)} processes that exited ({where})")
    print(f"{'program':<22}{'procs':>7}{'CPU-s':>9}{'median':>8}{'max':>8}")
    for comm, cpus in sorted(by.items(), key=lambda kv: -sum(kv[1])):
        if sum(cpus) < 0.05:
            continue
        print(f"{comm:<22}{len(cpus):>7}{sum(cpus):>9.1f}{statistics.median(cpus):>8.2f}{max(cpus):>8.2f}")
    if starts:
        print("agent CLI processes (start, CPU-s, wall s, pid, ppid):")
        for r in sorted(recs, key=lambda r: r["btime"]):
            if r["comm"] in AGENTS + (BUN,):
                print(f"  {time.strftime('%H:%M:%S', time.gmtime(r['btime']))} {r['comm']:<22}{r['cpu']:>7.2f}{r['etime']:>8.1f} {r['pid']} {r['ppid']}")
    sys.exit(rc)


if __name__ == "__main__":
    main()
