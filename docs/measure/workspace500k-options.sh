#!/usr/bin/env bash
# workspace500k-options.sh — issue 33 point 6: which of git's options make
# the 500k-file workspace's scan (git status on a private index with the
# untracked cache, as runner/snapshot_untracked.go runs it) faster, each
# timed against that scan in the same session, A B A B …, with the median
# wall and CPU of each and the median of the pairwise ratios A/B.
# The repository is the bench's (go run ./cmd/bench -rows workspace500k
# makes it); it is only read: every variant has its own copy of the index
# in a scratch dir (GIT_INDEX_FILE), primed by two statuses before timing.
#
#   bash docs/measure/workspace500k-options.sh
#   REPO=/tmp/sentinel-bench-repo-500000 RUNS=5 bash docs/measure/workspace500k-options.sh
#   VARIANTS="no-untracked-cache" RUNS=5 nice -n -5 bash docs/measure/workspace500k-options.sh  # the cache's worth
set -uo pipefail
repo=${REPO:-/tmp/sentinel-bench-repo-500000}
runs=${RUNS:-5}
[ -f "$repo/.git/sentinel-bench-ready" ] || { echo "no bench repository at $repo: go run ./cmd/bench -rows workspace500k makes it" >&2; exit 1; }
work=$(mktemp -d /tmp/ws500k-options.XXXXXX)
# runner/snapshot_untracked.go's untrackedCacheConfig
base=(-c core.untrackedCache=true -c status.showUntrackedFiles=all -c core.trustctime=true -c core.checkStat=default
	-c core.splitIndex=false -c core.fsmonitor=false -c index.skipHash=false -c status.renames=false)
status=(status --porcelain=v2 -z --untracked-files=all --ignore-submodules=dirty --no-renames)
# An fsmonitor hook that says nothing changed: NOT safe (a change made
# while nothing watched is missed); it bounds what any fsmonitor could save.
cat >"$work/nothing-changed" <<'EOF_HOOK'
#!/bin/sh
printf 'sentinel-token\0'
EOF_HOOK
chmod +x "$work/nothing-changed"
declare -A extra
variant() { # name, then git -c options over base
	local name=$1; shift
	extra[$name]="$*"
	cp "$repo/.git/index" "$work/index.$name"
	env GIT_INDEX_FILE="$work/index.$name" git -C "$repo" update-index --untracked-cache --index-version 3 >/dev/null 2>&1
	case " $* " in *"index.version=4"*) env GIT_INDEX_FILE="$work/index.$name" git -C "$repo" update-index --index-version 4 ;; esac
	case " $* " in *"core.untrackedCache=false"*) env GIT_INDEX_FILE="$work/index.$name" git -C "$repo" update-index --no-untracked-cache >/dev/null 2>&1 ;; esac
	for _ in 1 2; do timed "$name" >/dev/null; done
}
timed() { # name: one scan, its wall and CPU seconds on stdout
	# shellcheck disable=SC2086
	/usr/bin/time -f '%e %U %S' -o "$work/t" env GIT_INDEX_FILE="$work/index.$1" GIT_OPTIONAL_LOCKS=1 \
		git -C "$repo" "${base[@]}" ${extra[$1]} "${status[@]}" >/dev/null
	awk '{ printf "%s %.2f\n", $1, $2 + $3 }' "$work/t"
}
med() { sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
variant base
variant no-untracked-cache -c core.untrackedCache=false
variant v4 -c index.version=4
variant checkstat-minimal -c core.checkStat=minimal
variant no-preload -c core.preloadIndex=false
variant fsmonitor-unsafe-bound -c core.fsmonitor="$work/nothing-changed" -c core.fsmonitorHookVersion=2
echo "# $(date -u +%FT%TZ) $(uptime); git $(git --version | cut -d' ' -f3); $(git -C "$repo" ls-files | wc -l) tracked files"
for v in ${VARIANTS:-no-untracked-cache v4 checkstat-minimal no-preload fsmonitor-unsafe-bound}; do
	: >"$work/a"; : >"$work/b"; : >"$work/r"
	for _ in $(seq "$runs"); do
		a=$(timed "$v"); b=$(timed base)
		echo "$a" >>"$work/a"; echo "$b" >>"$work/b"
		echo "$a $b" | awk '{ print $1 / $3 }' >>"$work/r"
	done
	printf '%-24s wall %s s (cpu %s s) against base %s s (cpu %s s): ratio %s\n' "$v" \
		"$(cut -d' ' -f1 "$work/a" | med)" "$(cut -d' ' -f2 "$work/a" | med)" \
		"$(cut -d' ' -f1 "$work/b" | med)" "$(cut -d' ' -f2 "$work/b" | med)" "$(med <"$work/r")"
done
echo "# $(date -u +%FT%TZ) $(uptime)"
rm -rf "$work"
