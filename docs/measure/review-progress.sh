#!/usr/bin/env bash
# review-progress.sh — issue 33 point 4's check: `sentinel review` shows
# which check runs, its elapsed time and its output tail while it
# re-verifies. Under tmux, the real binary reviews (--approve) a run kept
# in recovery, with a slow check that prints a line a second; the pane is
# captured each second and the captures that show progress are printed.
#
#   bash docs/measure/review-progress.sh PROJECT RUN [HOME]
#       PROJECT: a repository with .sentinel/recovery/RUN (e.g. a demo run
#       stopped with Ctrl-C, or supervised-once.sh's when its review fails)
set -uo pipefail
repo=$(git -C "$(dirname "$0")" rev-parse --show-toplevel)
proj=$1 run=$2 home=${3:-$HOME}
work=$(mktemp -d /tmp/review-progress.XXXXXX)
bin=${SENTINEL:-}
if [ -z "$bin" ]; then
	bin=$work/sentinel
	(cd "$repo" && go build -o "$bin" ./cmd/sentinel) || exit 1
fi
sock=$work/tmux.sock
check='for i in 1 2 3 4 5 6 7 8; do echo "slow check step $i"; sleep 1; done'
tmux -S "$sock" new-session -d -x 120 -y 30 -s review \
	"cd '$proj' && env HOME='$home' TERM=xterm-256color '$bin' review '$run' --approve --apply none --verify '$check'; echo EXIT \$?; sleep 30"
for i in $(seq 60); do
	sleep 1
	tmux -S "$sock" capture-pane -p -t review >"$work/cap$i"
	grep -q '^EXIT ' "$work/cap$i" && break
done
for f in $(ls "$work"/cap* | sort -V); do
	echo "--- after ${f##*cap} s"
	grep -v '^$' "$f" | tail -6
done
tmux -S "$sock" kill-server 2>/dev/null
chmod -R u+w "$work" 2>/dev/null; rm -rf "$work"
