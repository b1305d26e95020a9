package checkpoint

import (
	"encoding/json"
	"fmt"
	"sort"
	"unicode/utf8"
)

// A name on disk is bytes; a JSON string is UTF-8, and encoding/json turns
// every byte that is not into U+FFFD (so two names can become one). A
// saved manifest keeps each entry whose path or link target is not UTF-8
// a second time, byte for byte, in raw_names; reading it puts those bytes
// back. A manifest whose names are all UTF-8 is saved as ever.

// rawName is entry I's path and link target as bytes.
type rawName struct {
	I int    `json:"i"`
	P []byte `json:"p,omitempty"`
	T []byte `json:"t,omitempty"`
}

// manifestFile is a Manifest as saved.
type manifestFile struct {
	*Manifest
	Raw []rawName `json:"raw_names,omitempty"`
}

// encodeManifest is m as saved.
func encodeManifest(m *Manifest) ([]byte, error) {
	f := manifestFile{Manifest: m}
	for i, e := range m.Entries {
		if !utf8.ValidString(e.Path) || !utf8.ValidString(e.Target) {
			f.Raw = append(f.Raw, rawName{I: i, P: []byte(e.Path), T: []byte(e.Target)})
		}
	}
	return json.Marshal(f)
}

// decodeManifest reads a saved manifest, its raw names put back.
func decodeManifest(b []byte) (*Manifest, error) {
	m := &Manifest{}
	f := manifestFile{Manifest: m}
	if err := json.Unmarshal(b, &f); err != nil {
		return nil, err
	}
	for _, r := range f.Raw {
		if r.I < 0 || r.I >= len(m.Entries) {
			return nil, fmt.Errorf("raw name %d of %d entries", r.I, len(m.Entries))
		}
		m.Entries[r.I].Path, m.Entries[r.I].Target = string(r.P), string(r.T)
	}
	if len(f.Raw) > 0 {
		sort.Slice(m.Entries, func(i, j int) bool { return m.Entries[i].Path < m.Entries[j].Path })
	}
	if err := checkEntries(m); err != nil { // manifest_check.go
		return nil, err
	}
	ownersKnown(m) // owner.go
	return m, nil
}
