package inside

import (
	"encoding/json"
	"math/rand/v2"
	"reflect"
	"testing"

	"github.com/sentinelhq/sentinel/internal/randfill"
)

// EncodeSpec writes what json.Marshal writes, byte for byte, and
// DecodeSpec reads it exactly as encoding/json does: random Specs, every
// field filled (a field added to Spec later is filled too, so both must
// learn it or this fails).
func TestSpecCodecIsEncodingJSONs(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	for range 3000 {
		var sp Spec
		randfill.Fill(r, reflect.ValueOf(&sp).Elem())
		js, err := json.Marshal(sp)
		if err != nil {
			t.Fatal(err)
		}
		var want Spec
		if err := json.Unmarshal(js, &want); err != nil {
			t.Fatal(err)
		}
		if enc, err := EncodeSpec(sp); err != nil || string(enc) != string(js) {
			t.Fatalf("EncodeSpec(%+v) = %s, %v\njson.Marshal: %s", sp, enc, err, js)
		}
		got, err := DecodeSpec(js)
		if err != nil {
			t.Fatalf("DecodeSpec(%s): %v", js, err)
		}
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("DecodeSpec(%s)\n= %+v\nencoding/json: %+v", js, got, want)
		}
	}
}

// What is not a Spec is refused, never half read.
func TestDecodeSpecRefusesWhatIsNotASpec(t *testing.T) {
	for _, bad := range []string{``, `[]`, `{"dir": 1}`, `{"writable": "x"}`, `{"proxy_port": 1.5}`, `{"proxy_port": 99999999999999999999}`,
		`{"report": "yes"}`, `{"overlay": []}`, `{"overlay": {"lower": 1}}`, `{"places": {}}`, `{"denied": [{"ino": -1}]}`,
		`{"dir": "a", "dir": "b"}`, `{"dir": "a"} x`} {
		if sp, err := DecodeSpec([]byte(bad)); err == nil {
			t.Errorf("DecodeSpec(%s) = %+v, want an error", bad, sp)
		}
	}
}
