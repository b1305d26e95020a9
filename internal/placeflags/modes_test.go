package placeflags

import (
	"io/fs"
	"strings"
	"testing"

	"github.com/sentinelhq/sentinel/runner/checkpoint"
)

// TestWritableSpellsTheSpecialBits: the DANGEROUS line prints the mode as
// chmod spells it, sticky, setgid and setuid included, as the checkpoint's
// mode lines do: chmod 1777 build read "(0777)", a directory anyone can
// write and delete in, when it is one only each file's owner can delete in.
func TestWritableSpellsTheSpecialBits(t *testing.T) {
	for _, tc := range []struct {
		mode fs.FileMode
		want string
	}{
		{fs.ModeDir | fs.ModeSticky | 0o777, "(1777)"},
		{fs.ModeDir | fs.ModeSetgid | 0o777, "(2777)"},
		{fs.ModeSetuid | 0o757, "(4757)"},
		{0o666, "(0666)"},
	} {
		kind := checkpoint.KindFile
		if tc.mode.IsDir() {
			kind = checkpoint.KindDir
		}
		c := checkpoint.Change{
			Path:   "build",
			Before: &checkpoint.Entry{Path: "build", Kind: kind, Mode: tc.mode.Perm() &^ 0o022},
			After:  &checkpoint.Entry{Path: "build", Kind: kind, Mode: tc.mode},
		}
		got := Writable(c)
		if !strings.Contains(got, tc.want) {
			t.Errorf("mode %v: %q, want it to name %s", tc.mode, got, tc.want)
		}
	}
}
