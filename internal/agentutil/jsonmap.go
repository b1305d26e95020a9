package agentutil

import "sort"

// Helpers for the agents' settings as JSON maps (read with ReadJSONC).

// StringList is v as a list of strings; false when v is not a list or
// holds anything else.
func StringList(v any) ([]string, bool) {
	l, ok := v.([]any)
	if !ok {
		return nil, false
	}
	out := make([]string, 0, len(l))
	for _, x := range l {
		s, ok := x.(string)
		if !ok {
			return nil, false
		}
		out = append(out, s)
	}
	return out, true
}

// AnyList is s as a JSON list.
func AnyList(s []string) []any {
	out := make([]any, len(s))
	for i, x := range s {
		out[i] = x
	}
	return out
}

// SortedKeys are m's keys in order.
func SortedKeys(m map[string]any) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// EachObject calls f on each entry of the object m[key] (an agent's MCP
// servers, say) that is itself an object, in name order, and deletes the
// entries that are not, and those f does not keep.
func EachObject(m map[string]any, key string, f func(name string, obj map[string]any) (keep bool)) {
	all, ok := m[key].(map[string]any)
	if !ok {
		return
	}
	for _, name := range SortedKeys(all) {
		if obj, ok := all[name].(map[string]any); !ok || !f(name, obj) {
			delete(all, name)
		}
	}
}
