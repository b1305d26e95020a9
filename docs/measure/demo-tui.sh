#!/usr/bin/env bash
# demo-tui.sh — issue 33 point 1 in the TUI: `go run ./cmd/sentinel demo` in a
# tmux pane, in the home given (fresh for a first run; the same again for a
# second). tmux's pipe-pane stamps every chunk of output the pane receives,
# so the largest stretch with no output at all is known; approval cards are
# answered with `a`; it stops at the review screen. Used by 33-check29.md.
#
#   bash docs/measure/demo-tui.sh CLONE HOME OUT   # OUT.chunks, OUT.final
set -uo pipefail
clone=$1 home=$2 out=$3
sock=$(mktemp -u /tmp/demo-tui.XXXXXX)
modcache=$(go env GOMODCACHE)
tmux -S "$sock" new-session -d -x 160 -y 45 -s d "sleep 1; cd '$clone' && env -i PATH='$PATH' HOME='$home' TERM=xterm-256color GOMODCACHE='$modcache' GOPROXY=off GOTOOLCHAIN=local go run ./cmd/sentinel demo; echo EXIT \$?; sleep 600"
tmux -S "$sock" pipe-pane -t d "perl -MTime::HiRes=time -e '\$|=1; binmode STDIN; while (sysread(STDIN, \$b, 65536)) { printf \"%.3f %d\n\", time, length \$b }' > '$out.chunks'"
t0=$(date +%s.%N)
for _ in $(seq 600); do
	sleep 1
	tmux -S "$sock" capture-pane -p -t d >"$out.final"
	grep -q '\[a\] approve once' "$out.final" && tmux -S "$sock" send-keys -t d a
	grep -q 'REVIEW · run\|^EXIT' "$out.final" && break
done
tmux -S "$sock" send-keys -t d q 2>/dev/null
sleep 2
tmux -S "$sock" kill-server
awk -v t0="$t0" 'NR==1{p=$1; first=$1} {d=$1-p; if(d>m){m=d; at=$1-t0} p=$1} END{printf "chunks %d; first output %.2f s after start (1 s of it the sleep above); largest gap with no output %.2f s, ending %.1f s after start\n", NR, first-t0, m, at}' "$out.chunks"
grep -E '✓|✗' "$out.final" | head -5
