package policy

import "strings"

// An abbreviated long option that names several options (`git push
// --forc`: --force, --force-if-includes, --force-with-lease) asks, as the
// program may refuse it or a newer version may read it as any of them.
// When every reading is denied the line is denied: whichever option the
// program takes it for, the command destroys, publishes or leaks (polcorp6
// spell/longopt). Each reading is judged as the line written out in full.

// ambiguousLongOpt judges args whose i-th word is the abbreviation name
// (with val after "=" when hasVal) of the options cands of key's table.
func (x *cmdCtx) ambiguousLongOpt(key string, args []word, i int, name, val string, hasVal bool, cands []string) {
	x.add(Ask, RuleOptionAmbiguous, key+" --"+name+" abbreviates several options ("+strings.Join(cands[:min(len(cands), 4)], ", ")+")")
	if len(cands) > 8 {
		return
	}
	var first finding
	for n, c := range cands {
		argv := append([]word(nil), args...)
		w := argv[i]
		w.val = c
		if hasVal {
			w.val += "=" + val
		}
		argv[i] = w
		f, denied := x.innerDenied(argv) // runnerwraps.go
		if !denied {
			return
		}
		if n == 0 {
			first = f
		}
	}
	x.add(Deny, first.rule, first.reason+" (--"+name+" is "+strings.Join(cands, " or ")+", each denied)")
}
