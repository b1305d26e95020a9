#!/usr/bin/env bash
# verify-true-no-seed.sh — issue 33: `--verify true` on a Go repository
# never builds a Go cache. A fresh home, the demo's Go sample project, a demo
# run with --verify true; every 0.1 s the run's process tree is looked at for
# a go command, and afterwards the home for a seed directory.
#
#   bash docs/measure/verify-true-no-seed.sh          # builds sentinel from this checkout
#   SENTINEL=/path/to/sentinel bash docs/measure/verify-true-no-seed.sh
#   VERIFY='go vet ./...' bash ...   # the contrast: a Go check does start the seed
set -uo pipefail
repo=$(git -C "$(dirname "$0")" rev-parse --show-toplevel)
work=$(mktemp -d /tmp/verify-true.XXXXXX)
bin=${SENTINEL:-}
if [ -z "$bin" ]; then
	bin=$work/sentinel
	(cd "$repo" && go build -o "$bin" ./cmd/sentinel) || exit 1
fi
home=$work/home
mkdir -p "$home"
echo "# $(date -u +%FT%TZ) $(uptime)"
env -i PATH="$PATH" HOME="$home" TERM=dumb "$bin" demo --plain --verify "${VERIFY:-true}" "$work/proj" </dev/null >"$work/out" 2>&1 &
pid=$!
: >"$work/gos"
# descendants of $pid, one sample
tree() {
	ps -e -o pid=,ppid=,comm= | awk -v root="$1" '
		{ parent[$1] = $2; comm[$1] = $3 }
		END { for (p in parent) { q = p; while (q in parent && q != root && q != 1) q = parent[q]; if (q == root && p != root) print p, comm[p] } }'
}
while kill -0 "$pid" 2>/dev/null; do
	tree "$pid" | awk '$2 == "go" || $2 ~ /^(compile|vet|link)$/' >>"$work/gos"
	sleep 0.1
done
wait "$pid"
rc=$?
seeds=$(find "$home" -type d -name 'verify-go-seed*' 2>/dev/null)
gos=$(sort -u "$work/gos" | wc -l)
tail -3 "$work/out" | sed 's/^/    | /'
echo "exit $rc; go processes seen under the run: $gos; seed dirs: ${seeds:-none}"
[ -n "${KEEP:-}" ] && echo "# kept $work" || { chmod -R u+w "$work" 2>/dev/null; rm -rf "$work"; }
[ "$rc" = 0 ] && [ "$gos" = 0 ] && [ -z "$seeds" ]
