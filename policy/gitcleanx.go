package policy

import "strings"

// gitCleanIgnored reports whether git clean's options delete ignored
// files too (-x, -X, in any cluster such as -fdx or -ffdX).
func gitCleanIgnored(sargs []word) bool {
	for _, w := range sargs {
		v := w.val
		if v == "--" {
			break
		}
		if !w.static || !strings.HasPrefix(v, "-") || strings.HasPrefix(v, "--") {
			continue
		}
		if strings.ContainsAny(v[1:], "xX") {
			return true
		}
	}
	return false
}
