package checkpoint

import (
	"strings"
	"testing"
)

// A user.* attribute whose name carries a newline and another name
// cannot be read back as a line of its own: the record says "?" instead
// of holding a "security.capability=…" line a coder spelled, which undo,
// run as root, would set. Seen failing without plainXAttrName (the record
// held the coder's capability line).
func TestAnXAttrNameCannotSpellAnotherLineOfTheRecord(t *testing.T) {
	names := []string{"user.ok", "user.x\nsecurity.capability", "user.y=z"}
	for _, bad := range names[1:] {
		list := func(b []byte) (int, error) {
			s := "user.ok\x00" + bad + "\x00"
			if b == nil {
				return len(s), nil
			}
			return copy(b, s), nil
		}
		get := func(name string, b []byte) (int, error) {
			v := "\x01\x00\x00\x02\xff\xff\xff\xff"
			if b == nil {
				return len(v), nil
			}
			return copy(b, v), nil
		}
		if got := readXAttrs(list, get); got != "?" {
			t.Errorf("attribute %q: record %q, want \"?\"", bad, got)
		}
	}
	if got := readXAttrs(func(b []byte) (int, error) {
		if b == nil {
			return len("user.ok\x00"), nil
		}
		return copy(b, "user.ok\x00"), nil
	}, func(_ string, b []byte) (int, error) {
		if b == nil {
			return 1, nil
		}
		return copy(b, "v"), nil
	}); !strings.HasPrefix(got, "user.ok=") {
		t.Errorf("a plain name: record %q", got)
	}
}
