// Package randfill fills a value with random data by reflection, for the
// differential tests that hold a hand-written JSON reader or writer to
// encoding/json: a field added to a type later is filled too, so the
// hand-written code must learn it or those tests fail.
//
// It must not be imported by non-test code.
package randfill

import (
	"encoding/json"
	"math/rand/v2"
	"reflect"
)

// strings are awkward on purpose: quotes, control characters, invalid
// UTF-8, the line separators JavaScript treats as newlines.
var strings = []string{"a", "allow", "deny", "shell", "/home/ada/src", "é \"q\" <&>\n", "\xff", "x\u2028y"}

// Fill sets every exported field v holds, recursively, to a random value —
// zero now and then, so omitempty is exercised too.
func Fill(r *rand.Rand, v reflect.Value) {
	if r.IntN(4) == 0 && v.Kind() != reflect.Struct {
		return // stays zero
	}
	switch v.Kind() {
	case reflect.String:
		v.SetString(strings[r.IntN(len(strings))])
	case reflect.Int, reflect.Int64:
		v.SetInt(r.Int64N(2000) - 1000)
	case reflect.Uint, reflect.Uint64:
		v.SetUint([]uint64{1, 1 << 40, 1<<64 - 1}[r.IntN(3)])
	case reflect.Bool:
		v.SetBool(true)
	case reflect.Pointer:
		v.Set(reflect.New(v.Type().Elem()))
		Fill(r, v.Elem())
	case reflect.Slice:
		if v.Type() == reflect.TypeFor[json.RawMessage]() {
			v.SetBytes([]byte([]string{`{"command": "ls -la"}`, `[1, "two", null]`, `"s"`, ` 42 `}[r.IntN(4)]))
			return
		}
		s := reflect.MakeSlice(v.Type(), 1+r.IntN(3), 3)
		for i := range s.Len() {
			Fill(r, s.Index(i))
		}
		v.Set(s)
	case reflect.Struct:
		for i := range v.NumField() {
			if v.Type().Field(i).IsExported() && v.Type().Field(i).Tag.Get("json") != "-" {
				Fill(r, v.Field(i))
			}
		}
	}
}
