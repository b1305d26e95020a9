package policy

import (
	"reflect"

	"mvdan.cc/sh/v3/syntax"
)

// DeeperThan says whether the line's syntax tree nests more than max
// nodes deep. The engine's walks (syntax.Walk and its own) recurse once a
// level, so a tree a few hundred thousand levels deep — `a && ` or `+1`
// in $(( )) repeated, which parse without any bracket — overflows the
// goroutine stack, a fatal error no caller can recover from. A caller
// that takes lines from a client asks this before judging one. It walks
// with its own stack, never recursing.
func (r *Reading) DeeperThan(max int) bool {
	if r.f == nil {
		return false
	}
	type item struct {
		v     reflect.Value
		depth int
	}
	stack := []item{{reflect.ValueOf(r.f), 0}}
	for len(stack) > 0 {
		it := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		v := it.v
		for v.Kind() == reflect.Interface || v.Kind() == reflect.Pointer {
			if v.IsNil() {
				v = reflect.Value{}
				break
			}
			v = v.Elem()
		}
		if !v.IsValid() || v.Kind() != reflect.Struct {
			continue
		}
		if it.depth > max {
			return true
		}
		for i := 0; i < v.NumField(); i++ {
			f := v.Field(i)
			switch f.Kind() {
			case reflect.Pointer, reflect.Interface:
				if !f.IsNil() && nodeField(f) {
					stack = append(stack, item{f, it.depth + 1})
				}
			case reflect.Slice:
				for j := 0; j < f.Len(); j++ {
					if e := f.Index(j); (e.Kind() == reflect.Pointer || e.Kind() == reflect.Interface) && !e.IsNil() && nodeField(e) {
						stack = append(stack, item{e, it.depth + 1})
					}
				}
			}
		}
	}
	return false
}

var syntaxPkg = reflect.TypeFor[syntax.File]().PkgPath()

// nodeField says whether v (a non-nil pointer or interface) holds one of
// the syntax package's structs: a node, not a position or a string.
func nodeField(v reflect.Value) bool {
	for v.Kind() == reflect.Interface || v.Kind() == reflect.Pointer {
		if v.IsNil() {
			return false
		}
		v = v.Elem()
	}
	return v.Kind() == reflect.Struct && v.Type().PkgPath() == syntaxPkg
}
