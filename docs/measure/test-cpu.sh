#!/usr/bin/env bash
# The CPU each top-level test of one package costs, whatever it starts
# (issue 33: suite-cpu.sh says which package is dear; this says which test).
#
#   bash docs/measure/test-cpu.sh PKG [-run X] [-norace] [-keep DIR]
#   TESTCPU_LOCK=/tmp/e2e.lock bash docs/measure/test-cpu.sh ./runner
#
# Builds PKG's test binary (with -race unless -norace, as the suite runs),
# then runs it with -test.parallel 1 -test.v in its own cpuacct cgroup, so
# tmux servers, agent CLIs and sentinel processes the tests start are
# counted too. At every top-level "=== RUN/CONT/PAUSE" and "--- PASS/FAIL/
# SKIP" line it reads the cgroup's cpuacct.usage and gives the CPU since the
# previous line to the test then running; CPU outside any test (TestMain,
# init, a parallel test's wait) is its own row. With TESTCPU_LOCK set, the
# run (not the build) holds that flock: e2e packages must
# (runner, runner/*, internal/mcpserver, sandbox, cmd/sentinel/...).
# Prints "CPU-s wall-s test", most CPU first, and the totals. -keep DIR
# also leaves the raw -v output in DIR/PKGNAME.out; TESTCPU_TRACE=FILE writes
# each event with the cgroup's CPU and wall time so far, and the CPU since
# the previous event with whom it was charged to. Needs root and cgroup
# v1 cpuacct (or a cgroup v2 mount where cpu.stat is readable).
set -euo pipefail
cd "$(dirname "$0")/../.."
pkg= run= race=-race keep=
while [ $# -gt 0 ]; do
	case $1 in
	-run) run=$2; shift 2 ;;
	-norace) race=; shift ;;
	-keep) keep=$2; shift 2 ;;
	-*) echo "test-cpu.sh: unknown flag $1" >&2; exit 2 ;;
	*) pkg=$1; shift ;;
	esac
done
[ -n "$pkg" ] || { echo "usage: test-cpu.sh PKG [-run X] [-norace] [-keep DIR]" >&2; exit 2; }
dir=$(go list -f '{{.Dir}}' "$pkg")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
bin=$tmp/pkg.test
go test -c $race -o "$bin" "$pkg"
[ -x "$bin" ] || { echo "test-cpu.sh: $pkg has no test files" >&2; exit 2; }
base=/sys/fs/cgroup/cpuacct
[ -d "$base" ] || base=/sys/fs/cgroup
cg=$base/sentinel-test-cpu/$(basename "$dir")-$$
mkdir -p "$cg"
args=(-test.count=1 -test.parallel=1 -test.v -test.timeout=60m)
[ -z "$run" ] || args+=(-test.run "$run")
out=/dev/null
if [ -n "$keep" ]; then mkdir -p "$keep"; out=$keep/$(basename "$dir").out; fi
# The reader (python) stays outside the cgroup and starts the binary
# itself (`sh -c` joins the cgroup and then execs it), so that it reads
# every line as it comes.
cat >"$tmp/reader.py" <<'PYEOF'
import os, re, subprocess, sys, time
cg, out, pkgdir = sys.argv[1], sys.argv[2], sys.argv[3]
cmd = ["sh", "-c", 'echo $$ >"$1/cgroup.procs" && shift && exec "$@"', "sh", cg] + sys.argv[4:]
def usage():
    try:
        with open(os.path.join(cg, "cpuacct.usage")) as f:
            return int(f.read())
    except FileNotFoundError:
        with open(os.path.join(cg, "cpu.stat")) as f:
            for line in f:
                k, v = line.split()
                if k == "usage_usec":
                    return int(v) * 1000
    return 0
ev = re.compile(r"^(=== (RUN|CONT|PAUSE)|--- (PASS|FAIL|SKIP)):? +(\S+)")
OUT = "(outside tests: init, TestMain, waits)"
cpu, wall, status = {}, {}, {}
cur = OUT
last_u, last_t = usage(), time.monotonic()
start_u, start_t = last_u, last_t
log = open(out, "w")
proc = subprocess.Popen(cmd, cwd=pkgdir, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, errors="replace")
trace = open(os.environ["TESTCPU_TRACE"], "w") if os.environ.get("TESTCPU_TRACE") else None
def charge():
    global last_u, last_t
    u, t = usage(), time.monotonic()
    if trace:
        trace.write("%9.3f %9.3f +%7.3f %s -> " % ((u - start_u) / 1e9, t - start_t, (u - last_u) / 1e9, cur))
    cpu[cur] = cpu.get(cur, 0) + (u - last_u)
    wall[cur] = wall.get(cur, 0) + (t - last_t)
    last_u, last_t = u, t
for line in proc.stdout:
    log.write(line)
    m = ev.match(line)
    if not m or "/" in m.group(4):
        if line.startswith(("FAIL", "panic:")):
            sys.stderr.write(line)
        continue
    kind, name = m.group(2) or m.group(3), m.group(4)
    if kind in ("PASS", "FAIL", "SKIP") and cur == OUT:
        # A parallel test resumed with no output of its own gets no CONT
        # line (go test prints one only when the output changes test):
        # with -parallel 1, what ran since the last line was this test.
        cur = name
    charge()
    if trace:
        trace.write(line)
    if kind in ("RUN", "CONT"):
        cur = name
    else:
        if kind in ("PASS", "FAIL", "SKIP"):
            status[name] = kind
        cur = OUT
rc = proc.wait()
charge()
if trace:
    trace.write("end\n")
log.close()
rows = sorted(cpu, key=lambda k: -cpu[k])
print("%8s %8s  %s" % ("CPU-s", "wall-s", "test"))
for k in rows:
    st = status.get(k, "")
    print("%8.2f %8.2f  %s%s" % (cpu[k] / 1e9, wall[k], k, "" if st in ("PASS", "") else "  [" + st + "]"))
fails = sum(1 for v in status.values() if v == "FAIL")
print("%8.2f %8.2f  TOTAL (%d tests, %d failed)" % ((last_u - start_u) / 1e9, last_t - start_t, len(status), fails))
sys.exit(rc)
PYEOF
reader() { python3 -u "$tmp/reader.py" "$cg" "$out" "$dir" "$bin" "${args[@]}"; }
rc=0
if [ -n "${TESTCPU_LOCK:-}" ]; then exec {lockfd}>>"$TESTCPU_LOCK"; flock "$lockfd"; fi
reader || rc=$?
if [ -n "${TESTCPU_LOCK:-}" ]; then flock -u "$lockfd"; exec {lockfd}>&-; fi
left=$(cat "$cg/cgroup.procs" 2>/dev/null | wc -l)
[ "$left" -eq 0 ] || echo "test-cpu.sh: $left process(es) outlived the test binary (their later CPU is not counted)" >&2
rmdir "$cg" 2>/dev/null || true
exit "$rc"
