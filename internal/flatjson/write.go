package flatjson

import (
	"bytes"
	"encoding/json"
	"strconv"
	"unicode/utf8"
)

const hex = "0123456789abcdef"

// AppendString appends s as a JSON string, byte for byte as json.Marshal
// writes it: <, > and & escaped for HTML, U+2028 and U+2029 escaped, and
// invalid UTF-8 written as U+FFFD.
func AppendString(dst []byte, s string) []byte {
	dst = append(dst, '"')
	start := 0
	for i := 0; i < len(s); {
		if b := s[i]; b < utf8.RuneSelf {
			if b >= 0x20 && b != '"' && b != '\\' && b != '<' && b != '>' && b != '&' {
				i++
				continue
			}
			dst = append(dst, s[start:i]...)
			switch b {
			case '\\', '"':
				dst = append(dst, '\\', b)
			case '\b':
				dst = append(dst, '\\', 'b')
			case '\f':
				dst = append(dst, '\\', 'f')
			case '\n':
				dst = append(dst, '\\', 'n')
			case '\r':
				dst = append(dst, '\\', 'r')
			case '\t':
				dst = append(dst, '\\', 't')
			default:
				dst = append(dst, '\\', 'u', '0', '0', hex[b>>4], hex[b&0xF])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			dst = append(dst, s[start:i]...)
			dst = append(dst, `\ufffd`...)
			i += size
			start = i
			continue
		}
		if r == '\u2028' || r == '\u2029' {
			dst = append(dst, s[start:i]...)
			dst = append(dst, '\\', 'u', '2', '0', '2', hex[r&0xF])
			i += size
			start = i
			continue
		}
		i += size
	}
	dst = append(dst, s[start:]...)
	return append(dst, '"')
}

// Writer writes one JSON object member by member, in the order given.
type Writer struct {
	buf  []byte
	more []bool // per open object: whether it has a member yet
	err  error
}

// Open starts an object: the whole value, or the value of the member
// named by the last Name.
func (w *Writer) Open() *Writer {
	w.buf = append(w.buf, '{')
	w.more = append(w.more, false)
	return w
}

// Close ends the innermost open object.
func (w *Writer) Close() *Writer {
	w.buf = append(w.buf, '}')
	w.more = w.more[:len(w.more)-1]
	return w
}

// Name starts a member: its value is what is written next.
func (w *Writer) Name(name string) *Writer {
	if top := len(w.more) - 1; w.more[top] {
		w.buf = append(w.buf, ',')
	} else {
		w.more[top] = true
	}
	w.buf = AppendString(w.buf, name)
	w.buf = append(w.buf, ':')
	return w
}

// String writes a member holding s.
func (w *Writer) String(name, s string) *Writer {
	w.Name(name)
	w.buf = AppendString(w.buf, s)
	return w
}

// StringIf writes a member holding s when s is not "" (omitempty).
func (w *Writer) StringIf(name, s string) *Writer {
	if s != "" {
		w.String(name, s)
	}
	return w
}

// Int writes a member holding n.
func (w *Writer) Int(name string, n int64) *Writer {
	w.Name(name)
	w.buf = strconv.AppendInt(w.buf, n, 10)
	return w
}

// Bool writes a member holding b.
func (w *Writer) Bool(name string, b bool) *Writer {
	w.Name(name)
	w.buf = strconv.AppendBool(w.buf, b)
	return w
}

// Raw writes a member holding the JSON value raw, compacted (json.Compact):
// the value json.Marshal writes for a json.RawMessage, though not byte for
// byte where raw holds <, >, & or U+2028/U+2029, which Marshal also
// escapes. Raw that is not valid JSON makes the whole object an error
// (Bytes).
func (w *Writer) Raw(name string, raw []byte) *Writer {
	w.Name(name)
	b := bytes.NewBuffer(w.buf)
	if err := json.Compact(b, raw); err != nil && w.err == nil {
		w.err = err
	}
	w.buf = b.Bytes()
	return w
}

// RawIf writes a member holding raw when raw is not empty (omitempty).
func (w *Writer) RawIf(name string, raw []byte) *Writer {
	if len(raw) > 0 {
		w.Raw(name, raw)
	}
	return w
}

// Strings writes a member holding the list ss.
func (w *Writer) Strings(name string, ss []string) *Writer {
	w.Name(name)
	w.buf = append(w.buf, '[')
	for i, s := range ss {
		if i > 0 {
			w.buf = append(w.buf, ',')
		}
		w.buf = AppendString(w.buf, s)
	}
	w.buf = append(w.buf, ']')
	return w
}

// Bytes is what was written, or the first error.
func (w *Writer) Bytes() ([]byte, error) {
	if w.err != nil {
		return nil, w.err
	}
	return w.buf, nil
}
