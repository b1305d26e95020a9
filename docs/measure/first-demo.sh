#!/usr/bin/env bash
# first-demo.sh — issue 33's check, as a new person meets it: a fresh home
# and a fresh clone; `go run ./cmd/sentinel demo --plain` twice. Every
# output line is stamped with the seconds since its run started; each run
# ends with its largest silent gap, its verification's seconds (from the
# first "verify"/"preparing the Go build cache" line to the verification's
# result) and when the Go build cache seed it built was ready.
#
# The home is new (XDG_* and GOCACHE unset), but its ~/.cache/go-build is
# warm as `go run` leaves it: `go run ./cmd/sentinel --version` runs there
# once first (so the demo's own `go run` finds sentinel built and linked).
# The module cache is the machine's (GOMODCACHE, GOPROXY=off): downloading
# modules is not what is measured.
#
#   bash docs/measure/first-demo.sh              # from a checkout; clones HEAD
#   REV=main bash docs/measure/first-demo.sh     # clone, then check out REV
#   WARM_FROM=DIR bash docs/measure/first-demo.sh  # start the home's go-build
#       as a copy of DIR (a go-build an earlier run of this script kept:
#       saves the ten minutes of building all of sentinel at load 20)
#   KEEP=1 bash docs/measure/first-demo.sh       # keep the home and clone
set -euo pipefail
repo=$(git -C "$(dirname "$0")" rev-parse --show-toplevel)
modcache=$(go env GOMODCACHE)
work=$(mktemp -d /tmp/first-demo.XXXXXX)
home=$work/home
mkdir -p "$home"
git clone -q "$repo" "$work/clone"
cd "$work/clone"
if [ -n "${REV:-}" ]; then git checkout -q "$REV"; fi
echo "# commit $(git log --oneline -1)"
if [ -n "${WARM_FROM:-}" ]; then
	mkdir -p "$home/.cache"
	cp -a "$WARM_FROM" "$home/.cache/go-build"
fi
fresh() {
	env -i PATH="$PATH" HOME="$home" TERM=dumb TMPDIR="${TMPDIR:-/tmp}" \
		GOMODCACHE="$modcache" GOPROXY=off GOTOOLCHAIN=local "$@"
}
# stamp prints each line with its seconds since start, then the summary.
stamp() {
	perl -MTime::HiRes=time -e '
		$| = 1; $t0 = $last = time; $gap = 0;
		while (<STDIN>) {
			$now = time;
			if ($now - $last > $gap) { $gap = $now - $last; $gapat = $_; }
			$last = $now;
			printf "%7.1f %s", $now - $t0, $_;
			$vs = $now if !defined $vs && /preparing the Go build cache|verify: /;
			$ve = $now if /verif\w* (passed|failed)|checks? passed|verified/i && defined $vs;
		}
		$now = time;
		printf "# total %.1f s; largest silent gap %.1f s, before: %s", $now - $t0, $gap, $gapat;
		printf "# verification %.1f s\n", $ve - $vs if defined $ve;
	'
}
echo "# $(date -u +%FT%TZ) $(uptime)"
echo "# warming the person's build cache: go run ./cmd/sentinel --version"
/usr/bin/time -f "# %e s wall, %U s user" env -i PATH="$PATH" HOME="$home" GOMODCACHE="$modcache" \
	GOPROXY=off GOTOOLCHAIN=local go run ./cmd/sentinel --version
for n in 1 2; do
	echo "# demo run $n: $(uptime)"
	t0=$(date +%s.%N)
	fresh go run ./cmd/sentinel demo --plain </dev/null 2>&1 | stamp
	# When each seed this run built was signed, from the demo's start.
	for sig in "$home"/.cache/sentinel/verify-go-seed/*/manifest.sig; do
		[ -e "$sig" ] || continue
		awk -v a="$(stat -c %.9Y "$sig")" -v b="$t0" -v n="$(basename "$(dirname "$sig")")" \
			'BEGIN { if (a > b) printf "# seed %s ready %.1f s after the demo started\n", n, a - b }'
	done
done
echo "# $(date -u +%FT%TZ) $(uptime)"
if [ -z "${KEEP:-}" ]; then
	chmod -R u+w "$work" 2>/dev/null || true
	rm -rf "$work"
else
	echo "# kept $work"
fi
