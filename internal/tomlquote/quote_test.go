package tomlquote

import (
	"testing"

	"github.com/BurntSushi/toml"
)

// Whatever a string holds, it reads back as itself and nothing more.
func TestStringReadsBackAsItself(t *testing.T) {
	for _, s := range []string{"", "plain", `a"b`, `c:\dir\`, "line\nx = 1", "tab\there", "del\x7f", "\x00", "ünï"} {
		var v struct{ K string }
		if _, err := toml.Decode("K = "+String(s)+"\n", &v); err != nil || v.K != s {
			t.Errorf("%q: read back %q (%v)", s, v.K, err)
		}
	}
}
