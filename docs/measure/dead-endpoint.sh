#!/usr/bin/env bash
# dead-endpoint.sh — issue 33 point 3's check: each real coder adapter
# (claude, codex, gemini over acp, opencode over acp), its base-URL
# environment variable pointed at a closed local port, in a fresh home and a
# fresh sample repository. Each must fail in under 10 s with a one-line error
# and leave no run (hence no recovery entry) in the home's state.
#
#   bash docs/measure/dead-endpoint.sh              # builds sentinel from this checkout
#   SENTINEL=/path/to/sentinel bash docs/measure/dead-endpoint.sh
set -uo pipefail
repo=$(git -C "$(dirname "$0")" rev-parse --show-toplevel)
work=$(mktemp -d /tmp/dead-endpoint.XXXXXX)
bin=${SENTINEL:-}
if [ -z "$bin" ]; then
	bin=$work/sentinel
	(cd "$repo" && go build -o "$bin" ./cmd/sentinel) || exit 1
fi
# A port nothing listens on: bind one, note it, let it go.
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
url=http://127.0.0.1:$port
echo "# $(date -u +%FT%TZ) $(uptime); closed port $port"
fails=0
only=${ONLY:-}
try() { # name, then the env and sentinel arguments
	local name=$1; shift
	case " $only " in "  " | *" $name "*) ;; *) return ;; esac
	local home=$work/home-$name proj=$work/proj-$name
	mkdir -p "$home" "$proj"
	git -C "$proj" init -q && printf 'hello\n' >"$proj/README" &&
		git -C "$proj" -c user.name=t -c user.email=t@t add -A &&
		git -C "$proj" -c user.name=t -c user.email=t@t commit -qm init
	local t0 t1 rc
	t0=$(date +%s.%N)
	(cd "$proj" && env -i PATH="$PATH" HOME="$home" TERM=dumb "$@" </dev/null >"$work/$name.out" 2>&1)
	rc=$?
	t1=$(date +%s.%N)
	local secs lines left
	secs=$(echo "$t1 - $t0" | bc)
	# the one line said while the endpoint is tried is progress, not error
	lines=$(grep -v '^sentinel: preflight: .*answers (up to\|^$' "$work/$name.out" | wc -l)
	left=$(find "$home" "$proj/.git" -path '*recover*' 2>/dev/null | wc -l)
	runs=$(find "$home" "$proj" -type d -path '*/runs/*' -prune 2>/dev/null | wc -l)
	printf '%-9s exit %d in %5.1f s; %d error line(s); %d recovery path(s), %d run dir(s)\n' "$name" "$rc" "$secs" "$lines" "$left" "$runs"
	sed 's/^/    | /' "$work/$name.out"
	if [ "$rc" = 0 ] || [ "$(echo "$secs >= 10" | bc)" = 1 ] || [ "$lines" != 1 ] || [ "$left" != 0 ] || [ "$runs" != 0 ]; then
		fails=$((fails + 1))
		echo "    FAIL"
	fi
}
try claude ANTHROPIC_API_KEY=sk-dead ANTHROPIC_BASE_URL=$url "$bin" run --plain --coder claude --verify true "say hi"
try codex OPENAI_API_KEY=sk-dead OPENAI_BASE_URL=$url/v1 "$bin" run --plain --coder codex --verify true "say hi"
try gemini GEMINI_API_KEY=dead GOOGLE_GEMINI_BASE_URL=$url "$bin" run --plain --coder acp --verify true "say hi" -- gemini --experimental-acp
# opencode's endpoint is known when its model is named (its config's model or -m).
try opencode ANTHROPIC_API_KEY=sk-dead ANTHROPIC_BASE_URL=$url "$bin" run --plain --coder acp --verify true "say hi" -- opencode acp -m anthropic/claude-sonnet-4-5
try opencode-openai OPENAI_API_KEY=sk-dead OPENAI_BASE_URL=$url/v1 "$bin" run --plain --coder acp --verify true "say hi" -- opencode acp -m openai/gpt-5
# No model named: opencode's own pick is not knowable before it starts, so
# the preflight asks for one (it used to start and fail after 100 s).
try opencode-nomodel ANTHROPIC_API_KEY=sk-dead ANTHROPIC_BASE_URL=$url "$bin" run --plain --coder acp --verify true "say hi" -- opencode acp
echo "# $fails failure(s)"
if [ -z "${KEEP:-}" ]; then chmod -R u+w "$work" 2>/dev/null; rm -rf "$work"; else echo "# kept $work"; fi
[ "$fails" = 0 ]
