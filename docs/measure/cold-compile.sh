#!/usr/bin/env bash
# The compile side of the suite from an empty build cache, as CI meets it
# on a fresh clone (issue 33): what `go test -race ./...` spends compiling,
# vetting and linking before any test runs, in all and per action.
#
#   bash docs/measure/cold-compile.sh [-keep CACHEDIR] [PACKAGES...]
#
# Runs `go test -race -count=1 -run '^$' PACKAGES` (default ./...) with a
# new, empty GOCACHE and -toolexec a wrapper that times every tool the go
# command starts (compile, asm, cgo, vet, link) with /usr/bin/time. Prints
# the whole command's CPU (user+sys of go and everything it waited for,
# the test binaries' TestMain included), the CPU per tool, and the 40
# dearest actions. A package compiled twice (once for its importers, once
# with its in-package tests) is two rows. -keep leaves the cache in
# CACHEDIR (it must not exist) for a warm run after; otherwise it is
# removed. Tests that build more themselves (internal/testbin's sentinel
# and helper, internal/norace's child builds, internal/crossbuild) do it
# only when they run: -run '^$' runs none of them.
set -euo pipefail
cd "$(dirname "$0")/../.."
keep=
if [ "${1:-}" = -keep ]; then keep=$2; shift 2; fi
[ $# -gt 0 ] || set -- ./...
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cache=${keep:-$work/cache}
mkdir "$cache"
cat >"$work/tx.sh" <<'EOF'
#!/bin/sh
tool=$(basename "$1") pkg=- prev= last= out=
for a in "$@"; do
	[ "$prev" = -p ] && pkg=$a
	[ "$prev" = -o ] && out=$a
	prev=$a last=$a
done
case $tool in
link) [ -z "$out" ] || pkg="link:$(basename "$out")" ;; # no -o: the version query
vet) case $last in *.cfg) pkg=$(sed -n 's/.*"ImportPath": *"\([^"]*\)".*/\1/p' "$last" | head -1) ;; esac ;;
esac
t=$(mktemp)
/usr/bin/time -f "%U %S" -o "$t" "$@"
rc=$?
echo "$tool $pkg $(tail -1 "$t")" >>"$TXLOG"
rm -f "$t"
exit $rc
EOF
chmod +x "$work/tx.sh"
export TXLOG=$work/actions GOCACHE=$cache
/usr/bin/time -f "%U %S %e" -o "$work/total" \
	go test -race -count=1 -run '^$' -toolexec "$work/tx.sh" "$@" >"$work/out" 2>&1 || {
	cat "$work/out" >&2
	exit 1
}
read -r u s e <"$work/total"
echo "whole command: $(echo "$u + $s" | bc) CPU-s ($u user, $s sys), $e s wall"
echo "per tool (runs, CPU-s):"
awk '$2 != "-" {c[$1] += $3 + $4; n[$1]++} END {for (k in c) printf "  %-8s %5d %8.1f\n", k, n[k], c[k]}' "$TXLOG" | sort -k3 -rn
echo "dearest actions (CPU-s):"
awk '$2 != "-" {printf "  %7.2f %s %s\n", $3 + $4, $1, $2}' "$TXLOG" | sort -rn | head -40
