#!/usr/bin/env bash
# What one start of each real agent CLI costs, the unit most of the e2e
# packages' CPU is made of (issue 33: e2e/claude spent 117 of 168 CPU-s in
# 30 Claude Code processes; e2e/agents is mostly opencode and Gemini CLI).
#
#   bash docs/measure/agent-start.sh [rounds]     (default 3)
#
# Each round, alternating, each in a cpuacct cgroup of its own (children
# counted), against a fake Messages API answering "ok" (fakemodel.go):
#   claude-p        claude -p in a fresh HOME
#   opencode-fresh  opencode run in a fresh HOME (its database made anew)
#   opencode-warm   opencode run again in the HOME the previous round used
#   gemini-relaunch gemini --version as a person starts it (relaunches itself)
#   gemini-one      the same with GEMINI_CLI_NO_RELAUNCH=true (the tests' way)
#   gemini-ncc      gemini-one with NODE_COMPILE_CACHE set; the script says
#                   whether anything was written to the cache (Node < 22.1
#                   has no compile cache; claude and opencode are Bun
#                   binaries, which do not read it either)
# Prints "label wall-s CPU-s" lines, then each label's median CPU-s.
# Needs root and cgroup v1's cpuacct; the CLIs skipped when not installed.
set -euo pipefail
rounds=${1:-3}
repo=$(cd "$(dirname "$0")/../.." && pwd)
work=$(mktemp -d)
cgs=()
trap 'kill "$fm" 2>/dev/null || true; for c in "${cgs[@]}"; do rmdir "$c" 2>/dev/null || true; done; rm -rf "$work"' EXIT
(cd "$repo" && go build -o "$work/fakemodel" docs/measure/fakemodel.go)
"$work/fakemodel" >"$work/url" &
fm=$!
until [ -s "$work/url" ]; do sleep 0.1; done
url=$(cat "$work/url")
base=/sys/fs/cgroup/cpuacct
# measure LABEL DIR ENV... -- CMD...: one start in a cgroup of its own.
measure() {
	local label=$1 dir=$2; shift 2
	local envs=()
	while [ "$1" != "--" ]; do envs+=("$1"); shift; done
	shift
	local cg=$base/agent-start-$$-$RANDOM
	mkdir -p "$cg"; cgs+=("$cg")
	local s e
	s=$(date +%s.%N)
	(cd "$dir" && env "${envs[@]}" sh -c 'echo $$ >"$1/cgroup.procs"; shift; exec "$@"' sh "$cg" "$@" >/dev/null 2>&1) || true
	e=$(date +%s.%N)
	printf '%-16s %6.1f %6.2f\n' "$label" "$(echo "$e - $s" | bc)" "$(echo "$(cat "$cg/cpuacct.usage") / 1000000000" | bc -l)" | tee -a "$work/rows"
	rmdir "$cg" 2>/dev/null || true
}
# home: a fresh HOME with a project in it, the opencode config of the e2e
# tests (e2e/agents' writeOpencodeConfig) pointing at the fake model.
home() {
	local h; h=$(mktemp -d "$work/h.XXXX")
	mkdir -p "$h/p" "$h/.config/opencode" "$h/.cache/opencode"
	git -C "$h/p" init -q && git -C "$h/p" -c user.name=m -c user.email=m@x commit -q --allow-empty -m init
	printf '{"autoupdate":false,"share":"disabled","model":"fake/fake-model","small_model":"fake/fake-model","provider":{"fake":{"npm":"@ai-sdk/anthropic","name":"Fake","options":{"baseURL":"%s/v1","apiKey":"sk-test"},"models":{"fake-model":{"name":"Fake","tool_call":true}}}}}\n' "$url" >"$h/.config/opencode/opencode.json"
	echo '{}' >"$h/.cache/opencode/models.json"
	echo "$h"
}
offline=(NPM_CONFIG_REGISTRY=http://127.0.0.1:9 BUN_CONFIG_REGISTRY=http://127.0.0.1:9)
ocwarm=
for r in $(seq "$rounds"); do
	if command -v claude >/dev/null; then
		h=$(home)
		measure claude-p "$h/p" HOME="$h" ANTHROPIC_BASE_URL="$url" ANTHROPIC_API_KEY=sk-ant-test-0123456789abcdefghij \
			CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1 DISABLE_AUTOUPDATER=1 -- claude -p hi
	fi
	if command -v opencode >/dev/null; then
		h=$(home)
		measure opencode-fresh "$h/p" HOME="$h" TMPDIR="$h" "${offline[@]}" -- opencode run hi
		if [ -n "$ocwarm" ]; then
			measure opencode-warm "$ocwarm/p" HOME="$ocwarm" TMPDIR="$ocwarm" "${offline[@]}" -- opencode run hi
		fi
		ocwarm=$h
	fi
	if command -v gemini >/dev/null; then
		h=$(home)
		measure gemini-relaunch "$h/p" HOME="$h" -- gemini --version
		measure gemini-one "$h/p" HOME="$h" GEMINI_CLI_NO_RELAUNCH=true -- gemini --version
		mkdir -p "$work/ncc"
		measure gemini-ncc "$h/p" HOME="$h" GEMINI_CLI_NO_RELAUNCH=true NODE_COMPILE_CACHE="$work/ncc" -- gemini --version
	fi
done
if command -v node >/dev/null; then
	echo "node $(node --version): NODE_COMPILE_CACHE wrote $(find "$work/ncc" -type f 2>/dev/null | wc -l) file(s)"
fi
echo "median CPU-s:"
awk '{c[$1] = c[$1] " " $3} END {for (k in c) print k, c[k]}' "$work/rows" | sort | while read -r label vals; do
	printf '  %-16s %s  (%s)\n' "$label" "$(printf '%s\n' $vals | sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}')" "$vals"
done
