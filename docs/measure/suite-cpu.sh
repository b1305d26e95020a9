#!/usr/bin/env bash
# The CPU each package's tests cost, whatever they start (issue 33: on 2
# cores the suite's wall time cannot fall below its CPU time / 2).
#
#   bash docs/measure/suite-cpu.sh [packages…]     (default ./...)
#
# Each test binary runs (go test -exec) in its own cpuacct cgroup, so
# tmux servers, agent CLIs and sentinel processes that daemonize are
# counted too, which time(1) and go test's own numbers miss. Needs root and
# cgroup v1's cpuacct (or a cgroup v2 mount where cpu.stat is readable).
# Prints package, wall s and CPU s, most CPU first, and the sum.
set -euo pipefail
cd "$(dirname "$0")/../.."
[ $# -gt 0 ] || set -- ./...
log=$(mktemp)
wrap=$(mktemp)
cat >"$wrap" <<'WRAPEOF'
#!/usr/bin/env bash
base=/sys/fs/cgroup/cpuacct
[ -d "$base" ] || base=/sys/fs/cgroup
cg=$base/sentinel-suite-cpu/$(basename "$PWD")-$$
mkdir -p "$cg" && echo $$ >"$cg/cgroup.procs"
start=$(date +%s.%N)
"$@"; rc=$?
end=$(date +%s.%N)
if [ -r "$cg/cpuacct.usage" ]; then ns=$(cat "$cg/cpuacct.usage")
else ns=$(( $(awk '/^usage_usec/ {print $2}' "$cg/cpu.stat") * 1000 )); fi
printf '%s %.1f %.1f\n' "${PWD#"$SUITE_ROOT"/}" "$(echo "$end - $start" | bc)" "$(echo "$ns/1000000000" | bc -l)" >>"$SUITE_LOG"
rmdir "$cg" 2>/dev/null || true
exit $rc
WRAPEOF
chmod +x "$wrap"
rc=0
SUITE_LOG=$log SUITE_ROOT=$PWD go test -race -count=1 -timeout 30m -exec "$wrap" "$@" >/dev/null || rc=$?
sort -k3 -rn "$log" | awk '{ printf "%8.1f CPU-s %8.1f s  %s\n", $3, $2, $1; s += $3 } END { printf "%8.1f CPU-s in all test binaries\n", s }'
rm -f "$log" "$wrap"
exit "$rc"
