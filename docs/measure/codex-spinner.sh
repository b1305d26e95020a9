#!/usr/bin/env bash
# The CPU Codex's TUI (0.171.0) spends while it waits, with the person's
# [tui] animations on and off (issue 33; runner/codex keeps the setting,
# e2etest.CodexStill gives it to every test's Codex), as
# claude-spinner.sh does for Claude Code.
#   bash docs/measure/codex-spinner.sh [seconds]   (default 20; root, cgroup v1 cpuacct)
# Codex starts in tmux in a fresh HOME and trusted project, pointed at a local
# port that accepts and never answers; measured 2026-12-07 its screen after
# the 10 s start showed its composer (the start prompt not yet sent), so this
# is Codex waiting at its prompt, as it waits for a person or a card. Its
# app-server daemon is turned off (Sentinel turns it off too), else it
# outlives the TUI in the cgroup.
set -euo pipefail
secs=${1:-20}
work=$(mktemp -d /var/tmp/codex-spinner.XXXXXX)
trap 'tmux -L "cs-$$" kill-server 2>/dev/null || true; kill "$hang" 2>/dev/null || true; rm -rf "$work"' EXIT
python3 -c '
import socket
s = socket.socket(); s.bind(("127.0.0.1", 0)); s.listen(16)
print(s.getsockname()[1], flush=True)
held = []
while True: held.append(s.accept()[0])
' >"$work/port" &
hang=$!
until [ -s "$work/port" ]; do sleep 0.1; done
port=$(cat "$work/port")
for anim in true false; do
  rm -rf "$work/h" "$work/p"; mkdir -p "$work/h/.codex" "$work/p"; git -C "$work/p" init -q
  cat >"$work/h/.codex/config.toml" <<TOML
model = "gpt-test"
model_provider = "hang"
check_for_update_on_startup = false
[features]
daemon_auto_start = false
[model_providers.hang]
name = "hang"
base_url = "http://127.0.0.1:$port/v1"
env_key = "OPENAI_API_KEY"
wire_api = "responses"
[projects."$work/p"]
trust_level = "trusted"
[tui]
animations = $anim
TOML
  cg=/sys/fs/cgroup/cpuacct/codex-spinner-$$-$anim
  mkdir "$cg"
  (echo "$BASHPID" >"$cg/cgroup.procs"; cd "$work/p"
   exec env HOME="$work/h" CODEX_HOME="$work/h/.codex" OPENAI_API_KEY=sk-test \
     tmux -L "cs-$$" new-session -d -x 120 -y 40 codex "say hi")
  sleep 10 # its start, not measured
  a=$(cat "$cg/cpuacct.usage"); sleep "$secs"; b=$(cat "$cg/cpuacct.usage")
  tmux -L "cs-$$" capture-pane -p -t 0 | grep -v '^\s*$' | tail -3 | sed 's/^/    screen: /'
  tmux -L "cs-$$" kill-server
  printf 'tui.animations=%-5s %5.2f CPU-s in %s s of waiting\n' "$anim" "$(echo "($b - $a) / 1000000000" | bc -l)" "$secs"
  until rmdir "$cg" 2>/dev/null; do for p in $(cat "$cg/cgroup.procs"); do kill "$p" 2>/dev/null || true; done; sleep 0.2; done
done
