#!/usr/bin/env bash
# first-demo-pairs.sh — issue 33's "first verification no longer than the
# second", N times: for each pair a fresh home whose ~/.cache/go-build is a
# copy of WARM_FROM (the go-build `go run ./cmd/sentinel` leaves a new
# person: first-demo.sh KEEP=1 keeps one in home/.cache/go-build), then
# `sentinel demo --plain` twice with one binary built from this checkout
# (not go run: the run, not the go command, is measured). Each run's
# verification is timed as first-demo.sh times it (its first "preparing the
# Go build cache"/"verify:" line to its result); each run's largest silent
# gap is printed too. Ends with the medians and the load.
#
#   WARM_FROM=/tmp/first-demo.X/home/.cache/go-build N=5 bash docs/measure/first-demo-pairs.sh
set -uo pipefail
repo=$(git -C "$(dirname "$0")" rev-parse --show-toplevel)
: "${WARM_FROM:?set WARM_FROM to a go-build dir (see the top of this script)}"
n=${N:-5}
work=$(mktemp -d /tmp/first-demo-pairs.XXXXXX)
(cd "$repo" && go build -o "$work/sentinel" ./cmd/sentinel) || exit 1
modcache=$(go env GOMODCACHE)
stamp() {
	perl -MTime::HiRes=time -e '
		$| = 1; $t0 = $last = time; $gap = 0;
		while (<STDIN>) {
			$now = time;
			$gap = $now - $last if $now - $last > $gap;
			$last = $now;
			$vs = $now if !defined $vs && /preparing the Go build cache|verify: /;
			$ve = $now if /verif\w* (passed|failed)/i && defined $vs;
		}
		printf "%.1f %.1f\n", (defined $ve ? $ve - $vs : -1), $gap;
	'
}
echo "# $(git -C "$repo" log --oneline -1)"
echo "# start $(date -u +%FT%TZ) $(uptime)"
: >"$work/pairs"
for i in $(seq "$n"); do
	home=$work/home$i
	mkdir -p "$home/.cache"
	cp -a "$WARM_FROM" "$home/.cache/go-build"
	line="pair $i:"
	for r in 1 2; do
		out=$(cd "$work" && env -i PATH="$PATH" HOME="$home" TERM=dumb TMPDIR="${TMPDIR:-/tmp}" \
			GOMODCACHE="$modcache" GOPROXY=off GOTOOLCHAIN=local "$work/sentinel" demo --plain </dev/null 2>&1 | stamp)
		line="$line $out"
	done
	echo "$line  (load $(cut -d' ' -f1 /proc/loadavg))"
	echo "$line" >>"$work/pairs"
	chmod -R u+w "$home" 2>/dev/null; rm -rf "$home"
done
echo "# end $(date -u +%FT%TZ) $(uptime)"
# columns: pair i: first-verification first-gap second-verification second-gap
awk '{ f[NR] = $3; s[NR] = $5; g1[NR] = $4; g2[NR] = $6 }
	function med(a, n,   i, j, t) { for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++) if (a[j] < a[i]) { t = a[i]; a[i] = a[j]; a[j] = t }; return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2 }
	END { printf "# median verification: first %.1f s, second %.1f s; median largest gap: first %.1f s, second %.1f s\n", med(f, NR), med(s, NR), med(g1, NR), med(g2, NR) }' "$work/pairs"
chmod -R u+w "$work" 2>/dev/null; rm -rf "$work"
