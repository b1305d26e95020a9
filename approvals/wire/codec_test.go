package wire

import (
	"encoding/json"
	"math/rand/v2"
	"reflect"
	"testing"

	"github.com/sentinelhq/sentinel/internal/randfill"
)

// reread is a line as the broker reads it.
func reread(t *testing.T, line []byte) Message {
	t.Helper()
	var m Message
	if err := json.Unmarshal(line, &m); err != nil {
		t.Fatalf("encoding/json cannot read %s: %v", line, err)
	}
	return m
}

func TestEncodeLineWritesWhatMarshalWrites(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	for range 5000 {
		var m Message
		randfill.Fill(r, reflect.ValueOf(&m).Elem())
		want, err := json.Marshal(m)
		if err != nil {
			t.Fatal(err)
		}
		got, err := encodeLine(m)
		if err != nil {
			t.Fatalf("encodeLine(%+v): %v", m, err)
		}
		if a, b := reread(t, got), reread(t, want); !reflect.DeepEqual(a, b) {
			t.Fatalf("the broker reads\n%s\nas %+v, but json.Marshal's\n%s\nas %+v", got, a, want, b)
		}
	}
}

func TestEncodeLineRefusesInvalidRawJSON(t *testing.T) {
	if _, err := encodeLine(Message{Type: TypeRequest, Request: &Request{Kind: "shell", Command: "x", Input: json.RawMessage("{nope")}}); err == nil {
		t.Fatal("a request carrying invalid JSON was written")
	}
}

func TestDecodeAnswerReadsWhatUnmarshalReads(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	for range 5000 {
		var m Message
		randfill.Fill(r, reflect.ValueOf(&m).Elem())
		m.Request, m.Report = nil, nil // the broker sends neither
		line, _ := json.Marshal(m)
		got, err := decodeAnswer(line)
		if err != nil {
			t.Fatalf("decodeAnswer(%s): %v", line, err)
		}
		if want := reread(t, line); !reflect.DeepEqual(got, want) {
			t.Fatalf("decodeAnswer(%s) = %+v, encoding/json %+v", line, got, want)
		}
	}
}

func TestDecodeAnswerRefusesWhatIsNotAnAnswer(t *testing.T) {
	for _, line := range []string{`nope`, `[]`, `{"v":"1"}`, `{"v":1,"type":2}`, `{"v":1,"decision":"allow"}`,
		`{"v":1,"decision":{"decision":1}}`, `{"v":1,"decision":{"remember":"yes"}}`, `{"v":1,"decision":{"hosts":"h"}}`,
		`{"v":1,"id":"c1","id":"c2"}`, `{"v":1,"decision":{"decision":"deny","decision":"allow"}}`} {
		if m, err := decodeAnswer([]byte(line)); err == nil {
			t.Errorf("decodeAnswer(%s) = %+v, want an error", line, m)
		}
	}
}
