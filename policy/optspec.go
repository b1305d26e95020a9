package policy

import (
	"strings"
)

// optSpec describes a wrapper's options: which take a value.
type optSpec struct {
	flags    string   // single-letter options without a value
	valued   string   // single-letter options that take a value
	long     []string // long options without a value
	longVal  []string // long options that take a value (--x=v or --x v)
	stopAtNo bool     // the first non-option ends the options (always true for wrappers)
}

// skipOpts consumes options from args (args[0] is the first candidate). It
// returns the index of the first operand, and false when an option is not
// in the spec. onVal sees every valued option and its value.
func skipOpts(args []word, sp optSpec, onVal func(opt, val string)) (int, bool) {
	i := 0
	for i < len(args) {
		a := args[i].val
		if a == "--" {
			return i + 1, true
		}
		if len(a) < 2 || a[0] != '-' {
			return i, true
		}
		if strings.HasPrefix(a, "--") {
			name, val, hasVal := strings.Cut(a[2:], "=")
			switch {
			case contains(sp.long, name) && !hasVal:
				i++
			case contains(sp.longVal, name):
				if !hasVal {
					if i+1 >= len(args) {
						return i, false
					}
					val = args[i+1].val
					i++
				}
				if onVal != nil {
					onVal("--"+name, val)
				}
				i++
			default:
				return i, false
			}
			continue
		}
		// A cluster of short options: -abc, or -n5, or -n 5.
		j := 1
		for j < len(a) {
			ch := a[j]
			switch {
			case strings.IndexByte(sp.flags, ch) >= 0:
				j++
			case strings.IndexByte(sp.valued, ch) >= 0:
				val := a[j+1:]
				if val == "" {
					if i+1 >= len(args) {
						return i, false
					}
					val = args[i+1].val
					i++
				}
				if onVal != nil {
					onVal("-"+string(ch), val)
				}
				j = len(a)
			default:
				return i, false
			}
		}
		i++
	}
	return i, true
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
