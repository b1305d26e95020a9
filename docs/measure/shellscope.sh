#!/usr/bin/env bash
# shellscope.sh — what internal/shellscope's signal scope does and costs,
# measured inside the real in-place sandbox. Sentinel scopes only Codex's
# and Claude Code's commands; this builds sentinel with the command coder
# scoped too (a go build -overlay of runner/shellscope.go, nothing
# committed changes), so that a plain bash script plays the agent: each
# `bash -c` it starts is a command in a scope of its own.
#
#   bash docs/measure/shellscope.sh            # as root or as any user
#   SANDBOX=ns bash docs/measure/shellscope.sh
set -uo pipefail
repo=$(git -C "$(dirname "$0")" rev-parse --show-toplevel)
work=$(mktemp -d /tmp/shellscope.XXXXXX)
sed 's/^var scopedAgents = \[\]string{"codex", "claude"}/var scopedAgents = []string{"codex", "claude", "command"}/' \
	"$repo/runner/shellscope.go" >"$work/shellscope.go"
grep -q '"command"}' "$work/shellscope.go" || { echo "scopedAgents changed; edit this script" >&2; exit 1; }
printf '{"Replace":{"%s":"%s"}}\n' "$repo/runner/shellscope.go" "$work/shellscope.go" >"$work/overlay.json"
(cd "$repo" && go build -overlay "$work/overlay.json" -o "$work/bin/" ./cmd/sentinel ./cmd/sentinel-helper) || exit 1
mkdir -p "$work/place" && git -C "$work/place" init -q
cat >"$work/place/what.sh" <<'SH'
echo "the agent runs as $(readlink /proc/$$/exe)"
bash -c 'sleep 300 & echo $! > pid1'
bash -c 'kill -0 $(cat pid1) 2>/dev/null; echo "a later command signals an earlier one'"'"'s background process: rc=$? (1: refused)"'
bash -c 'kill -0 $PPID 2>/dev/null; echo "a command signals the agent: rc=$? (1: refused)"'
bash -c 'sleep 200 & bash -c "kill \$1; echo \"a nested shell kills its own command'"'"'s process: rc=\$? (0: allowed)\"" x $!; wait'
bash -c 'kill -9 -1; echo "a command ran kill -9 -1"'
echo "the agent is still alive after it"
kill $(cat pid1); echo "the agent kills what its command left running: rc=$? (0: allowed)"
SH
cat >"$work/place/cost.sh" <<'SH'
echo "200 x bash -c true started by the agent (wrapper, a new scope each):"; time (for i in $(seq 200); do bash -c true; done)
echo "200 x the real bash -c true (no wrapper):"; time (for i in $(seq 200); do /.sentinel-shells/usr/bin/bash -c true; done)
echo "200 x sh -c true inside one command (wrapper, no new scope):"; bash -c 'time (for i in $(seq 200); do sh -c true; done)'
echo "200 x the real dash -c true:"; time (for i in $(seq 200); do /.sentinel-shells/usr/bin/dash -c true; done)
SH
echo "# $(date -u +%FT%TZ) $(uptime)"
cd "$work/place" || exit 1
for s in what.sh cost.sh; do
	"$work/bin/sentinel" exec --sandbox "${SANDBOX:-auto}" -- bash "$s" 2>&1 | sed -n 's/^\[CODER\] //p'
done
rm -rf "$work"
