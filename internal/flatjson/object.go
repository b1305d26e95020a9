// Package flatjson reads and writes the few JSON objects a hook process
// exchanges — an agent's hook payload, one line of the broker's protocol —
// without reflection. encoding/json works out each struct type's fields on
// its first use, and in a process that lives for one tool call that first
// use cost about as much as everything else the hook did (#21).
//
// It owns reading one object's members as raw values (validated by
// encoding/json's own scanner, so what it accepts is exactly valid JSON),
// the typed reads of one member with encoding/json's rules for strings,
// numbers, booleans and null, and writing strings as encoding/json writes
// them. It must not grow into a general JSON library: anything nested
// deeper than a list of strings, or rare, is handed to encoding/json.
package flatjson

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"unicode/utf8"
)

// Object is one JSON object's members: each name's raw JSON value. Its
// reads take each member to be valid JSON, so an Object is only ever one
// that Parse returned.
type Object map[string][]byte

// Parse reads data as one JSON object, white space around it allowed.
// Anything else — invalid JSON, another kind of value, trailing data — is
// an error, and so is an object that names a member twice: a reader that
// kept another of the two than the agent's own JSON reader does would
// judge a call other than the one the agent runs, and no agent sends one.
func Parse(data []byte) (Object, error) {
	if !json.Valid(data) {
		return nil, errors.New("not JSON")
	}
	return parseValid(data)
}

// parseValid is Parse of data already known to be valid JSON: a member of
// an Object, which Parse validated whole. Scanning it again would double
// the cost of reading a large member (a Write's tool_input).
func parseValid(data []byte) (Object, error) {
	i := skipSpace(data, 0)
	if i >= len(data) || data[i] != '{' {
		return nil, errors.New("not a JSON object")
	}
	o := Object{}
	i = skipSpace(data, i+1)
	if data[i] == '}' {
		return o, nil
	}
	for {
		end := stringEnd(data, i)
		name, err := unquote(data[i:end])
		if err != nil {
			return nil, err
		}
		i = skipSpace(data, end)
		i = skipSpace(data, i+1) // the colon
		vend := valueEnd(data, i)
		if _, dup := o[name]; dup {
			return nil, fmt.Errorf("the object names %q twice", name)
		}
		o[name] = data[i:vend:vend]
		i = skipSpace(data, vend)
		if data[i] == '}' {
			return o, nil
		}
		i = skipSpace(data, i+1) // the comma
	}
}

// Raw is the member's raw JSON, nil when it is absent.
func (o Object) Raw(name string) []byte { return o[name] }

// String is the member's string: "" when it is absent or null, an error
// when it is another kind of value (as decoding it into a Go string
// would be).
func (o Object) String(name string) (string, error) {
	raw, ok := o[name]
	if !ok || isNull(raw) {
		return "", nil
	}
	if raw[0] != '"' {
		return "", fmt.Errorf("%q is not a string", name)
	}
	return unquote(raw)
}

// Field is a string member's name and where to put its value.
type Field struct {
	Dst  *string
	Name string
}

// ReadStrings reads each field's member (String's rules), stopping at the
// first that is not a string.
func (o Object) ReadStrings(fields ...Field) error {
	for _, f := range fields {
		s, err := o.String(f.Name)
		if err != nil {
			return err
		}
		*f.Dst = s
	}
	return nil
}

// Int is the member's integer (0 when absent or null); a number with a
// fraction or exponent, or out of range, is an error, as decoding it into
// a Go int64 would be.
func (o Object) Int(name string) (int64, error) {
	raw, ok := o[name]
	if !ok || isNull(raw) {
		return 0, nil
	}
	n, err := strconv.ParseInt(string(raw), 10, 64)
	if err != nil {
		return 0, fmt.Errorf("%q is not an integer", name)
	}
	return n, nil
}

// Bool is the member's boolean (false when absent or null).
func (o Object) Bool(name string) (bool, error) {
	raw, ok := o[name]
	switch {
	case !ok || isNull(raw):
		return false, nil
	case string(raw) == "true":
		return true, nil
	case string(raw) == "false":
		return false, nil
	}
	return false, fmt.Errorf("%q is not a boolean", name)
}

// Object is the member as an object (nil when absent or null).
func (o Object) Object(name string) (Object, error) {
	raw, ok := o[name]
	if !ok || isNull(raw) {
		return nil, nil
	}
	sub, err := parseValid(raw) // valid: Parse checked the whole object
	if err != nil {
		return nil, fmt.Errorf("%q: %w", name, err)
	}
	return sub, nil
}

// Strings is the member as a list of strings (nil when absent or null; a
// null in the list is "", as encoding/json reads it into a []string).
func (o Object) Strings(name string) ([]string, error) {
	raw, ok := o[name]
	if !ok || isNull(raw) {
		return nil, nil
	}
	bad := fmt.Errorf("%q is not a list of strings", name)
	if raw[0] != '[' {
		return nil, bad
	}
	ss := []string{}
	i := skipSpace(raw, 1)
	if raw[i] == ']' {
		return ss, nil
	}
	for { // raw is valid JSON (Parse checked the whole object)
		end := valueEnd(raw, i)
		switch {
		case raw[i] == '"':
			s, err := unquote(raw[i:end])
			if err != nil {
				return nil, bad
			}
			ss = append(ss, s)
		case isNull(raw[i:end]):
			ss = append(ss, "")
		default:
			return nil, bad
		}
		i = skipSpace(raw, end)
		if raw[i] == ']' {
			return ss, nil
		}
		i = skipSpace(raw, i+1) // the comma
	}
}

func isNull(raw []byte) bool { return string(raw) == "null" }

// unquote is the string a valid JSON string literal holds. One with no
// escape and valid UTF-8 is its own bytes; any other is read by
// encoding/json, which turns bad UTF-8 and lone surrogates into U+FFFD.
func unquote(lit []byte) (string, error) {
	body := lit[1 : len(lit)-1]
	if bytes.IndexByte(body, '\\') < 0 && utf8.Valid(body) {
		return string(body), nil
	}
	var s string
	if err := json.Unmarshal(lit, &s); err != nil {
		return "", err
	}
	return s, nil
}

func skipSpace(data []byte, i int) int {
	for i < len(data) {
		switch data[i] {
		case ' ', '\t', '\n', '\r':
			i++
		default:
			return i
		}
	}
	return i
}

// stringEnd is the index just past the string literal starting at i.
func stringEnd(data []byte, i int) int {
	for j := i + 1; j < len(data); j++ {
		switch data[j] {
		case '\\':
			j++
		case '"':
			return j + 1
		}
	}
	return len(data)
}

// valueEnd is the index just past the value starting at i: data is valid
// JSON, so only strings and nesting need following.
func valueEnd(data []byte, i int) int {
	switch data[i] {
	case '"':
		return stringEnd(data, i)
	case '{', '[':
		depth := 0
		for j := i; j < len(data); j++ {
			switch data[j] {
			case '"':
				j = stringEnd(data, j) - 1
			case '{', '[':
				depth++
			case '}', ']':
				depth--
				if depth == 0 {
					return j + 1
				}
			}
		}
		return len(data)
	}
	j := i
	for j < len(data) {
		switch data[j] {
		case ',', '}', ']', ' ', '\t', '\n', '\r':
			return j
		}
		j++
	}
	return j
}
