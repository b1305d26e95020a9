#!/usr/bin/env bash
# review-tui.sh — issue 33 point 4/5: sentinel review's screen under tmux on a run
# kept in recovery: one file rejected (x), the rest approved (a, y), so the
# accepted part is re-verified; every output chunk after the verdict is
# stamped (tmux pipe-pane). Used by 33-check29.md.
#
#   bash docs/measure/review-tui.sh SENTINEL PROJECT RUN HOME OUT
set -uo pipefail
bin=$1 proj=$2 run=$3 home=$4 out=$5
sock=$(mktemp -u /tmp/review-tui.XXXXXX)
tmux -S $sock new-session -d -x 140 -y 40 -s r "cd $proj && env HOME=$home TERM=xterm-256color $bin review $run; echo EXIT \$?; sleep 600"
tmux -S $sock pipe-pane -t r "perl -MTime::HiRes=time -e '\$|=1; binmode STDIN; while (sysread(STDIN, \$b, 65536)) { printf \"%.3f %d\n\", time, length \$b }' > $out.chunks"
for i in $(seq 20); do sleep 0.5; tmux -S $sock capture-pane -p -t r | grep -q 'REVIEW' && break; done
sleep 1; tmux -S $sock send-keys -t r x; sleep 1; tmux -S $sock send-keys -t r a; sleep 1
tmux -S $sock capture-pane -p -t r > $out.after-a
t0=$(date +%s.%N)
tmux -S $sock send-keys -t r y
for i in $(seq 120); do sleep 0.5; tmux -S $sock capture-pane -p -t r > $out.cap.$i; grep -q '^EXIT' $out.cap.$i && break; done
tmux -S $sock kill-server
awk -v t0=$t0 '$1>t0 {n++; if(n==1){first=$1; p=t0} d=$1-p; if(d>m){m=d; at=$1-t0} p=$1} END{printf "after the verdict: %d chunks; first output %.2f s; largest gap %.2f s ending %.1f s after\n", n, first-t0, m, at}' $out.chunks
grep -v '^$' $out.cap.$i | tail -25
