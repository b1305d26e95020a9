#!/usr/bin/env bash
# shellscope.sh — what internal/shellscope's signal scope does and costs,
# measured inside the real in-place sandbox. Sentinel scopes only Codex's
# and Claude Code's commands; this builds sentinel with the command coder
# scoped too (a go build -overlay of runner/shellscope.go, nothing
# committed changes), so that a plain bash script plays the agent: each
# `bash -c` it starts is a command in a scope of its own.
#
# With STATE=1 the command coder also gets an agent state dir of its own
# (made writable and named the profile's AgentState, as Claude Code's and
# Codex's are), so each agent-started shell also reads the sandbox's plan
# and adds the write rules that keep the commands out of it.
#
#   bash docs/measure/shellscope.sh            # as root or as any user
#   SANDBOX=ns bash docs/measure/shellscope.sh
#   STATE=1 bash docs/measure/shellscope.sh
set -uo pipefail
repo=$(git -C "$(dirname "$0")" rev-parse --show-toplevel)
work=$(mktemp -d /tmp/shellscope.XXXXXX)
sed 's/^var scopedAgents = \[\]string{"codex", "claude"}/var scopedAgents = []string{"codex", "claude", "command"}/' \
	"$repo/runner/shellscope.go" >"$work/shellscope.go"
grep -q '"command"}' "$work/shellscope.go" || { echo "scopedAgents changed; edit this script" >&2; exit 1; }
if [ "${STATE:-}" = 1 ]; then
	sed 's|^\tdir := r.agentStateDir()$|\tdir := r.agentStateDir(); if r.adapter.Name() == "command" { _ = os.MkdirAll(dir, 0o700); prof.Writable = append(prof.Writable, dir) }|' \
		"$repo/runner/shellscope_state.go" | sed 's|^import (|import (\n\t"os"|' >"$work/shellscope_state.go"
	grep -q 'MkdirAll' "$work/shellscope_state.go" || { echo "keepAgentState changed; edit this script" >&2; exit 1; }
	printf '{"Replace":{"%s":"%s","%s":"%s"}}\n' "$repo/runner/shellscope.go" "$work/shellscope.go" \
		"$repo/runner/shellscope_state.go" "$work/shellscope_state.go" >"$work/overlay.json"
else
	printf '{"Replace":{"%s":"%s"}}\n' "$repo/runner/shellscope.go" "$work/shellscope.go" >"$work/overlay.json"
fi
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
[ -n "${STATE_DIR:-}" ] || STATE_DIR=$(tr '\0' '\n' </proc/1/cmdline | grep -o '"agent_state":\["[^"]*' | sed 's/.*\["//')
if [ -n "$STATE_DIR" ]; then bash -c 'echo x > "$1/planted" 2>/dev/null; echo "a command writes the agent state: rc=$? (1: refused)"' x "$STATE_DIR"; fi
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
