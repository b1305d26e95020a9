package checkpoint

import (
	"sort"
	"strings"

	"github.com/sentinelhq/sentinel/internal/textsafe"
)

// xattrChange says which recorded extended attributes differ from before
// to after (as xattrsOf spells them): "user.a added, user.b changed".
func xattrChange(before, after string) string {
	if before == "?" || after == "?" {
		return "extended attributes changed"
	}
	b, a := xattrNames(before), xattrNames(after)
	var parts []string
	for name, v := range a {
		switch w, ok := b[name]; {
		case !ok:
			parts = append(parts, textsafe.Line(name)+" added")
		case w != v:
			parts = append(parts, textsafe.Line(name)+" changed")
		}
	}
	for name := range b {
		if _, ok := a[name]; !ok {
			parts = append(parts, textsafe.Line(name)+" removed")
		}
	}
	sort.Strings(parts)
	return "extended attributes: " + strings.Join(parts, ", ")
}

// xattrNames maps the names in an xattrsOf string to their values.
func xattrNames(s string) map[string]string {
	out := map[string]string{}
	for _, kv := range strings.Split(s, "\n") {
		if name, v, ok := strings.Cut(kv, "="); ok {
			out[name] = v
		}
	}
	return out
}
