package stamp

import (
	"strings"
	"testing"
)

func TestStampNamesTheProtocol(t *testing.T) {
	if s := Stamp(); !strings.HasPrefix(s, "sentinel-helper-protocol/"+protocol) {
		t.Fatalf("Stamp() = %q", s)
	}
}
