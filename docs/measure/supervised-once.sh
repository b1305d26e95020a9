#!/usr/bin/env bash
# supervised-once.sh — issue 33 point 2's check: a supervised demo run (the
# deep preset: completion review, then the adversary) starts each check once
# per patch, and the report says where a result not run again came from.
# The supervisor is docs/measure/fake-supervisor.py (accepts everything).
#
#   bash docs/measure/supervised-once.sh           # builds sentinel from this checkout
#   SENTINEL=/path/to/sentinel bash docs/measure/supervised-once.sh
#   ADVERSARY=1 bash ...  # the adversary too (the fake gives it no probe: its gate fails, the run awaits review)
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
repo=$(git -C "$here" rev-parse --show-toplevel)
work=$(mktemp -d /tmp/supervised-once.XXXXXX)
bin=${SENTINEL:-}
if [ -z "$bin" ]; then
	bin=$work/sentinel
	(cd "$repo" && go build -o "$bin" ./cmd/sentinel) || exit 1
fi
python3 "$here/fake-supervisor.py" "$work/port" 2>"$work/turns" &
srv=$!
trap 'kill $srv 2>/dev/null' EXIT
for _ in $(seq 50); do [ -s "$work/port" ] && break; sleep 0.1; done
mkdir -p "$work/home"
# A repository without go.mod: a check there waits for no Go cache seed (in
# the demo's Go sample any check but true/false does, minutes in a new home
# at load 40). GO=1 uses the Go sample instead.
if [ -z "${GO:-}" ]; then
	mkdir -p "$work/proj" && git -C "$work/proj" init -q && echo hi >"$work/proj/README.md" &&
		git -C "$work/proj" add -A && git -C "$work/proj" -c user.name=t -c user.email=t@t commit -qm init
fi
env -i PATH="$PATH" HOME="$work/home" TERM=dumb "$bin" demo --plain --verify 'test -f shout.go' \
	--supervisor openai --supervisor-url "http://127.0.0.1:$(cat "$work/port")/v1" --supervisor-model fake \
	--adversary-runs "${ADVERSARY:-0}" "$work/proj" </dev/null >"$work/out" 2>&1
rc=$?
report=$(ls "$work"/proj/.sentinel/runs/*/FINAL_REPORT.md)
starts=$(grep -c 'verify: test -f shout.go$' "$work/out")
echo "exit $rc; supervisor turns $(wc -l <"$work/turns"); check starts: $starts"
grep -n 'not run again\|verification passed\|verify: ' "$work/out" | sed 's/^/    | /'
echo "# the report:"
grep -n -i 'verified as\|not run again\|shout.go' "$report" | sed 's/^/    | /'
[ -n "${KEEP:-}" ] && echo "# kept $work" || { chmod -R u+w "$work" 2>/dev/null; rm -rf "$work"; }
