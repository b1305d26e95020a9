#!/usr/bin/env bash
# A go test -exec wrapper that runs each test binary, and everything it
# starts, in a cgroup v1 `cpu` cgroup capped at QUOTA_US µs per 100 ms
# (default 15000: about the share one process gets at load 20 on 2 cores),
# to find load-fragile tests without loading a shared machine (issue 33):
#
#   go test -race -count=1 -exec "$PWD/docs/measure/quota-exec.sh" ./e2e/inplace/
#
# Needs root and /sys/fs/cgroup/cpu. Logs "pkgdir wall rc" to $Q_LOG.
base=/sys/fs/cgroup/cpu
cg=$base/sentinel-quota/$(basename "$PWD")-$$
mkdir -p "$cg" || exit 1
echo 100000 >"$cg/cpu.cfs_period_us"
echo "${QUOTA_US:-15000}" >"$cg/cpu.cfs_quota_us"
echo $$ >"$cg/cgroup.procs"
start=$(date +%s.%N)
"$@"
rc=$?
end=$(date +%s.%N)
printf '%s %.1f rc=%s\n' "$PWD" "$(echo "$end - $start" | bc)" "$rc" >>"${Q_LOG:-/tmp/quota-exec.log}"
echo $$ >"$base/cgroup.procs"
rmdir "$cg" 2>/dev/null || true
exit $rc
