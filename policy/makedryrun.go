package policy

import "strings"

// make -n TARGET (issue 32, polcorp7: `make -n install | head`). With -n
// (--dry-run, --just-print, --recon) make prints each recipe line instead
// of running it. What still runs: $(shell …) in the makefile, which runs
// for every target, `make test` included, and recipe lines marked + or
// naming $(MAKE), which make runs even under -n (a recursive make inherits
// the -n). So a dry run of a target named install, deploy or publish runs
// what a dry run of any other target runs, plus its + lines: inside the
// sandbox, not in place, those are contained as `make test` is (writes
// land in the copy, the network goes through the egress proxy's
// allowlist), and the target's name does not ask. With the sandbox off or
// in place a + line would install or deploy for real: the name asks as
// before.

// makeDryRun reports whether make's arguments ask for a dry run: -n,
// --dry-run, --just-print, --recon, or n in a bundle of short flags.
func makeDryRun(args []word) bool {
	for _, w := range args {
		v := w.val
		if !w.static {
			continue
		}
		switch {
		case v == "--":
			return false
		case v == "--dry-run" || v == "--just-print" || v == "--recon":
			return true
		case strings.HasPrefix(v, "-") && !strings.HasPrefix(v, "--") && len(v) > 1:
			flags := v[1:]
			if strings.Trim(flags, "nksBiqrRwSsetd") != "" {
				continue // a bundle with a valued flag (-C, -f, -j) or an unknown one
			}
			if strings.ContainsRune(flags, 'n') {
				return true
			}
		}
	}
	return false
}

// makeDryRunContained: a dry run inside the sandbox, not in place.
func (x *cmdCtx) makeDryRunContained(args []word) bool {
	return x.c.sandbox && !x.c.inPlace && makeDryRun(args)
}
