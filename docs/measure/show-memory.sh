#!/usr/bin/env bash
# show-memory.sh — issue 33 point 7's check: `sentinel show` streams a
# journal instead of loading it whole, so its memory stays flat however long
# the run was. A journal of N lines (default 10M) is made by repeating a
# small tool event, then /usr/bin/time -v gives the max RSS of `show FILE`
# (--plain is show's only form of text) and `show FILE --json`, each next to
# the same for a journal of N/10 lines: flat means about the same RSS.
# show prints ~5k lines/s at load 40: 10M lines take about half an hour
# then. The TUI is measured by tui-memory.sh.
#
#   N=10000000 bash docs/measure/show-memory.sh    # builds sentinel from this checkout
#   SENTINEL=/path/to/sentinel N=1000000 bash docs/measure/show-memory.sh
set -uo pipefail
repo=$(git -C "$(dirname "$0")" rev-parse --show-toplevel)
n=${N:-10000000}
work=$(mktemp -d /tmp/show-memory.XXXXXX)
bin=${SENTINEL:-}
if [ -z "$bin" ]; then
	bin=$work/sentinel
	(cd "$repo" && go build -o "$bin" ./cmd/sentinel) || exit 1
fi
mk() { # lines file
	awk -v n="$1" 'BEGIN { for (i = 1; i <= n; i++) printf "{\"seq\":%d,\"time\":\"2026-12-06T23:21:59.886786021Z\",\"run\":\"20261206-232149-bc5154\",\"lane\":\"tool\",\"kind\":\"result\",\"text\":\"./scripts/lint.sh → exit 0 (line %d)\"}\n", i, i }' >"$2"
}
echo "# $(date -u +%FT%TZ) $(uptime)"
mk $((n / 10)) "$work/small.jsonl"
mk "$n" "$work/big.jsonl"
ls -la "$work"/*.jsonl | awk '{print "# " $5 " bytes " $9}'
for args in "" "--json"; do
	for j in small big; do
		/usr/bin/time -f "%M KB max RSS, %e s wall" -o "$work/t" env HOME="$work" "$bin" show "$work/$j.jsonl" $args >/dev/null 2>"$work/err"
		printf 'show %-6s %-6s lines=%-9s %s\n' "$args" "$j" "$(wc -l <"$work/$j.jsonl")" "$(cat "$work/t")"
	done
done
echo "# $(date -u +%FT%TZ) $(uptime)"
chmod -R u+w "$work" 2>/dev/null; rm -rf "$work"
