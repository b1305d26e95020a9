#!/usr/bin/env bash
# The CPU Claude Code's TUI spends while it waits (issue 33: the e2e tests
# keep Claude in tmux waiting on hooks, cards and timeouts), with and without
# the "Reduce motion" setting (prefersReducedMotion) that e2etest.ClaudeStill
# gives every test's Claude.
#
#   bash docs/measure/claude-spinner.sh [seconds]     (default 20)
#
# Starts the real claude in a tmux server of its own, in a fresh HOME and
# project, against a local port that accepts and never answers (so Claude
# shows its spinner for the whole wait), and reads the cpuacct cgroup it
# runs in over the wait. Needs root and cgroup v1's cpuacct.
set -euo pipefail
secs=${1:-20}
work=$(mktemp -d)
trap 'tmux -L "s-$$" kill-server 2>/dev/null || true; kill "$hang" 2>/dev/null || true; rm -rf "$work"' EXIT
python3 -c '
import socket, sys
s = socket.socket(); s.bind(("127.0.0.1", 0)); s.listen(16)
print(s.getsockname()[1], flush=True)
held = []
while True: held.append(s.accept()[0])
' >"$work/port" &
hang=$!
until [ -s "$work/port" ]; do sleep 0.1; done
port=$(cat "$work/port")
key=sk-ant-test-0123456789abcdefghijklmnop
for motion in false true; do
  rm -rf "$work/h" "$work/p"; mkdir -p "$work/h/.claude" "$work/p"; git -C "$work/p" init -q
  KEY=$key P=$work/p python3 -c '
import json, os
json.dump({"hasCompletedOnboarding": True,
  "customApiKeyResponses": {"approved": [os.environ["KEY"][-20:]], "rejected": []},
  "projects": {os.environ["P"]: {"hasTrustDialogAccepted": True, "hasCompletedProjectOnboarding": True}}},
  open(os.environ["P"] + "/../h/.claude.json", "w"))'
  echo "{\"prefersReducedMotion\":$motion}" >"$work/h/.claude/settings.json"
  cg=/sys/fs/cgroup/cpuacct/claude-spinner-$$-$motion
  mkdir "$cg"
  (echo "$BASHPID" >"$cg/cgroup.procs"; cd "$work/p"
   exec env HOME="$work/h" ANTHROPIC_BASE_URL="http://127.0.0.1:$port" ANTHROPIC_API_KEY=$key \
     CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1 DISABLE_AUTOUPDATER=1 \
     tmux -L "s-$$" new-session -d -x 120 -y 40 claude "say hi")
  sleep 10 # its start, not measured
  a=$(cat "$cg/cpuacct.usage"); sleep "$secs"; b=$(cat "$cg/cpuacct.usage")
  tmux -L "s-$$" kill-server
  printf 'prefersReducedMotion=%-5s %5.2f CPU-s in %s s of waiting\n' "$motion" "$(echo "($b - $a) / 1000000000" | bc -l)" "$secs"
  until rmdir "$cg" 2>/dev/null; do sleep 0.2; done
done
