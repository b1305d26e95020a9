#!/usr/bin/env bash
# tui-memory.sh — issue 33 point 7 for the TUI: the live run view follows a
# journal of N lines (default 10M) and its memory stays flat. The journal is
# made like show-memory.sh's, half coder output lines and half tool
# results; docs/measure/tuimem.go shows it in the TUI (as `sentinel run`'s view
# joins a run: the journal so far, one event at a time) in a 120×40 tmux
# pane and quits when every event was taken. /usr/bin/time -v gives the max
# RSS of a journal of N/10 lines and of N lines; VmRSS is sampled every 10 s
# while the big one runs, so flat means about the same RSS throughout.
#
#   N=10000000 bash docs/measure/tui-memory.sh
set -uo pipefail
repo=$(git -C "$(dirname "$0")" rev-parse --show-toplevel)
n=${N:-10000000}
work=$(mktemp -d /tmp/tui-memory.XXXXXX)
(cd "$repo" && go build -o "$work/tuimem" docs/measure/tuimem.go) || exit 1
mk() { # lines file
	awk -v n="$1" 'BEGIN { for (i = 1; i <= n; i++) {
		if (i % 2) printf "{\"seq\":%d,\"time\":\"2026-12-06T23:21:59.886786021Z\",\"run\":\"tuimem\",\"lane\":\"coder\",\"kind\":\"output\",\"text\":\"--- PASS: TestSomething/case_%d (0.00s)\\r\\n\"}\n", i, i
		else printf "{\"seq\":%d,\"time\":\"2026-12-06T23:21:59.886786021Z\",\"run\":\"tuimem\",\"lane\":\"tool\",\"kind\":\"result\",\"text\":\"./scripts/lint.sh → exit 0 (line %d)\"}\n", i, i } }' >"$2"
}
echo "# $(date -u +%FT%TZ) $(uptime)"
mk $((n / 10)) "$work/small.jsonl"
mk "$n" "$work/big.jsonl"
for j in small big; do
	s=tuimem-$$-$j
	tmux new-session -d -s "$s" -x 120 -y 40 "/usr/bin/time -v -o $work/time.$j $work/tuimem $work/$j.jsonl 2>$work/err.$j"
	: >"$work/rss.$j"
	while tmux has-session -t "$s" 2>/dev/null; do
		pid=$(pgrep -n -f "^$work/tuimem $work/$j.jsonl" || true)
		[ -n "$pid" ] && awk -v t="$(date +%s)" '/VmRSS|VmHWM/ { printf "%s %s %s kB\n", t, $1, $2 }' "/proc/$pid/status" 2>/dev/null >>"$work/rss.$j"
		sleep 10
	done
	printf 'tui %-6s lines=%-9s %s KB max RSS, %s wall; %s\n' "$j" "$(wc -l <"$work/$j.jsonl")" \
		"$(awk -F': ' '/Maximum resident/ {print $2}' "$work/time.$j")" \
		"$(awk -F': ' '/Elapsed/ {print $2}' "$work/time.$j")" "$(cat "$work/err.$j")"
	echo "# VmRSS samples (every 10 s): $(awk '$2 == "VmRSS:" {printf "%d ", $3 / 1024}' "$work/rss.$j")MB"
done
echo "# $(date -u +%FT%TZ) $(uptime)"
rm -rf "$work"
