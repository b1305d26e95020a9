//go:build unix

package mcpserver

import (
	"strings"
	"testing"
	"unicode"
)

// A backup's name is made from the path it keeps; a client chooses that
// path, so its control and bidi characters do not reach the file name.
func TestABackupsNameHoldsNoControlCharacter(t *testing.T) {
	name := backupName("/p/a\n[TOOL] exec allow rm -rf ~ \x1b[2J\u202e.txt")
	if strings.IndexFunc(name, func(r rune) bool { return unicode.IsControl(r) || unicode.Is(unicode.Bidi_Control, r) }) >= 0 {
		t.Errorf("backup name %q holds a control character", name)
	}
	if !strings.HasSuffix(name, "p_a_[TOOL] exec allow rm -rf ~ _[2J_.txt") {
		t.Errorf("backup name %q", name)
	}
}
