package flatjson

import (
	"bytes"
	"encoding/json"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"
)

// seeds are payloads of the shapes a hook reads, and the edges of JSON.
var seeds = []string{
	`{"session_id":"s","cwd":"/w","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"ls -la \"x y\""},"tool_use_id":"t"}`,
	`  {"a" : 1 , "b":[1,{"c":"}"}], "d":null,"e":true,"f":false,"g":-1.5e3,"h":"\u00e9\ud83d\ude00\n"}  `,
	`{}`, `{"":""}`, `[]`, `"x"`, `1`, `null`, `{"a":1}{"b":2}`, `{"a":1,"a":2}`, `{"a":"\ud800"}`,
	"{\"a\":\"\xff\xfe\"}", `{"a":"<&>\u2028"}`, `{"a\"b":"c\\"}`, `{"A":1,"a":2}`, `{"a":{"a":1,"a":2}}`,
	`{"n":9223372036854775807}`, `{"n":9223372036854775808}`, `{"n":1.0}`, `{"n":-0}`, `{"n":"1"}`,
	`{"s":["a","b"]}`, `{"s":["a",1]}`, `{"s":[ "a" , null ,"b\u00e9" ]}`, `{"s":[]}`, `{"s":[ ]}`, `{"s":[null]}`, `{"s":[["a"]]}`, `{"s":[{}]}`, `{"x":`, `{"x":1,}`, "{\"a\":\"\x01\"}",
}

// oracle reads data as encoding/json does, and also says whether some name
// is given twice (which Parse refuses).
func oracle(data []byte) (map[string]json.RawMessage, bool, error) {
	var m map[string]json.RawMessage
	if err := json.Unmarshal(data, &m); err != nil || m == nil {
		return nil, false, err
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.Token() // {
	n := 0
	for dec.More() {
		dec.Token() // the name
		var skip json.RawMessage
		dec.Decode(&skip)
		n++
	}
	return m, n != len(m), nil
}

func checkParse(t *testing.T, data []byte) {
	t.Helper()
	o, err := Parse(data)
	m, dup, oerr := oracle(data)
	switch {
	case oerr != nil || m == nil:
		if err == nil {
			t.Fatalf("Parse(%q) = %v, but encoding/json reads no object (%v)", data, o, oerr)
		}
		return
	case dup:
		if err == nil {
			t.Fatalf("Parse(%q) took an object naming a member twice", data)
		}
		return
	case err != nil:
		t.Fatalf("Parse(%q): %v, but encoding/json reads %v", data, err, m)
	}
	if len(o) != len(m) {
		t.Fatalf("Parse(%q) has %d members, encoding/json %d", data, len(o), len(m))
	}
	for name, raw := range m {
		if !bytes.Equal(o[name], raw) {
			t.Fatalf("Parse(%q)[%q] = %s, encoding/json %s", data, name, o[name], raw)
		}
		checkTyped(t, o, name)
	}
}

// checkTyped holds each typed read of a member to encoding/json's reading
// of the same value into a Go value of that type.
func checkTyped(t *testing.T, o Object, name string) {
	t.Helper()
	raw := o[name]
	var s string
	serr := json.Unmarshal(raw, &s)
	if got, err := o.String(name); (err != nil) != (serr != nil) || (err == nil && got != s) {
		t.Fatalf("String(%s) = %q, %v; encoding/json %q, %v", raw, got, err, s, serr)
	}
	var n int64
	nerr := json.Unmarshal(raw, &n)
	if got, err := o.Int(name); (err != nil) != (nerr != nil) || (err == nil && got != n) {
		t.Fatalf("Int(%s) = %d, %v; encoding/json %d, %v", raw, got, err, n, nerr)
	}
	var b bool
	berr := json.Unmarshal(raw, &b)
	if got, err := o.Bool(name); (err != nil) != (berr != nil) || (err == nil && got != b) {
		t.Fatalf("Bool(%s) = %v, %v; encoding/json %v, %v", raw, got, err, b, berr)
	}
	var ss []string
	sserr := json.Unmarshal(raw, &ss)
	if got, err := o.Strings(name); (err != nil) != (sserr != nil) || (err == nil && !reflect.DeepEqual(got, ss)) {
		t.Fatalf("Strings(%s) = %q, %v; encoding/json %q, %v", raw, got, err, ss, sserr)
	}
	// A member object is read in place (not validated again), as Parse
	// reads a whole one.
	m, dup, merr := oracle(raw)
	sub, err := o.Object(name)
	switch {
	case isNull(raw):
		if sub != nil || err != nil {
			t.Fatalf("Object(null) = %v, %v; want nothing", sub, err)
		}
	case merr != nil || m == nil || dup:
		if err == nil {
			t.Fatalf("Object(%s) = %v, but encoding/json reads no object (%v) or a name twice (%v)", raw, sub, merr, dup)
		}
	case err != nil || len(sub) != len(m):
		t.Fatalf("Object(%s) = %v, %v; encoding/json %v", raw, sub, err, m)
	default:
		for n, want := range m {
			if !bytes.Equal(sub[n], want) {
				t.Fatalf("Object(%s)[%q] = %s, encoding/json %s", raw, n, sub[n], want)
			}
			checkTyped(t, sub, n)
		}
	}
}

func TestParseReadsWhatEncodingJSONReads(t *testing.T) {
	for _, s := range seeds {
		checkParse(t, []byte(s))
	}
	r := rand.New(rand.NewPCG(1, 2))
	for range 20000 {
		checkParse(t, randomObject(r))
	}
}

func TestParseRefusesANameGivenTwice(t *testing.T) {
	for _, s := range []string{`{"a":1,"a":2}`, `{"command":"ls","command":"rm -rf ~"}`, `{"a":1,"\u0061":2}`} {
		if _, err := Parse([]byte(s)); err == nil || !strings.Contains(err.Error(), "twice") {
			t.Errorf("Parse(%s) = %v, want a refusal of the name given twice", s, err)
		}
	}
	o, err := Parse([]byte(`{"a":{"b":1,"b":2}}`))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := o.Object("a"); err == nil {
		t.Error("a nested object naming a member twice was read")
	}
}

func FuzzParse(f *testing.F) {
	for _, s := range seeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) { checkParse(t, data) })
}

func TestAppendStringWritesWhatMarshalWrites(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	cases := []string{"", "plain", "\"\\/\b\f\n\r\t\x00\x1f\x7f", "<a&b>", "\u2028\u2029é😀", "\xff\xc3(", "a\xed\xa0\x80b"}
	for range 20000 {
		cases = append(cases, randomString(r))
	}
	for _, s := range cases {
		checkString(t, s)
	}
}

func checkString(t *testing.T, s string) {
	want, _ := json.Marshal(s)
	if got := AppendString(nil, s); !bytes.Equal(got, want) {
		t.Fatalf("AppendString(%q) = %s, json.Marshal %s", s, got, want)
	}
}

func FuzzAppendString(f *testing.F) {
	f.Add("a\"<\u2028\xff")
	f.Fuzz(checkString)
}

func TestWriterWritesOneObject(t *testing.T) {
	var w Writer
	w.Open().Int("v", 1).String("type", "request").StringIf("id", "").
		Name("request").Open().String("kind", "shell").Raw("input", []byte(" { \"a\" : [1, 2] } ")).
		Strings("argv", []string{"bash", "-lc", "x"}).Bool("b", true).Close().Close()
	got, err := w.Bytes()
	want := `{"v":1,"type":"request","request":{"kind":"shell","input":{"a":[1,2]},"argv":["bash","-lc","x"],"b":true}}`
	if err != nil || string(got) != want {
		t.Fatalf("got %s, %v; want %s", got, err, want)
	}
	var bad Writer
	bad.Open().Raw("input", []byte("{nope")).Close()
	if _, err := bad.Bytes(); err == nil {
		t.Fatal("an object holding invalid raw JSON was written")
	}
}

// randomObject is an object of random members, mostly valid, some broken.
func randomObject(r *rand.Rand) []byte {
	var b []byte
	b = append(b, pick(r, "{", " {", "{\n")...)
	names := []string{"a", "b", "tool_name", "A", "\\u0061", "é", ""}
	for i := range r.IntN(5) {
		if i > 0 {
			b = append(b, pick(r, ",", " , ", ",\t")...)
		}
		b = append(b, '"')
		b = append(b, pick(r, names...)...)
		b = append(b, '"', ':')
		b = append(b, randomValue(r, 0)...)
	}
	b = append(b, pick(r, "}", "} ", "}}", "", ",}")...)
	return b
}

func randomValue(r *rand.Rand, depth int) []byte {
	switch n := r.IntN(10); {
	case n < 3:
		b, _ := json.Marshal(randomString(r))
		if r.IntN(8) == 0 { // a raw escape or byte marshal would not write
			b = append(b[:len(b)-1], pick(r, `\ud800"`, "\xff\"", `\u00e9"`, `\/"`, `\x"`)...)
		}
		return b
	case n < 5:
		return []byte(pick(r, "0", "-0", "1", "-17", "1.5", "1e3", "9223372036854775807", "9223372036854775808", "01", "-"))
	case n < 6:
		return []byte(pick(r, "true", "false", "null", "nul", "True"))
	case n < 8 && depth < 3:
		var b []byte
		b = append(b, '[')
		for i := range r.IntN(3) {
			if i > 0 {
				b = append(b, pick(r, ",", " , ", ",\n")...)
			}
			b = append(b, randomValue(r, depth+1)...)
		}
		return append(b, pick(r, "]", " ]")...)
	case depth < 3:
		b := []byte(`{"k":`)
		b = append(b, randomValue(r, depth+1)...)
		if r.IntN(2) == 0 {
			b = append(b, `,"j":`...)
			b = append(b, randomValue(r, depth+1)...)
		}
		if r.IntN(4) == 0 {
			b = append(b, `,"k":1`...)
		}
		return append(b, '}')
	}
	return []byte(`"deep"`)
}

func randomString(r *rand.Rand) string {
	alphabet := []string{"a", "Z", " ", "\"", "\\", "/", "\n", "\t", "\x00", "\x1f", "\x7f", "<", ">", "&", "é", "😀", "\u2028", "\u2029", "\xff", "\xc3", "\xed\xa0\x80", "\ufffd"}
	var sb strings.Builder
	for range r.IntN(12) {
		sb.WriteString(pick(r, alphabet...))
	}
	return sb.String()
}

func pick(r *rand.Rand, ss ...string) string { return ss[r.IntN(len(ss))] }
