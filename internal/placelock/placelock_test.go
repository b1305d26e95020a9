package placelock

import (
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/sentinelhq/sentinel/internal/filelock"
)

func setup(t *testing.T) string {
	t.Helper()
	t.Setenv("XDG_STATE_HOME", t.TempDir())
	return t.TempDir()
}

func mkdir(t *testing.T, p string) string {
	t.Helper()
	if err := os.MkdirAll(p, 0o700); err != nil {
		t.Fatal(err)
	}
	return p
}

func busy(t *testing.T, err error) *BusyError {
	t.Helper()
	var b *BusyError
	if !errors.As(err, &b) {
		t.Fatalf("want a BusyError, got %v", err)
	}
	return b
}

// A second holder of the same place, however spelled, of one inside it or
// of one that holds it, is refused at once with a line naming the live run
// (id, pid, start) and the fix; a sibling is not.
func TestSecondHolderOfAPlaceIsRefused(t *testing.T) {
	base := setup(t)
	place := mkdir(t, filepath.Join(base, "work", "app"))
	mkdir(t, filepath.Join(place, "vendor", "lib"))
	sibling := mkdir(t, filepath.Join(base, "work", "other"))
	link := filepath.Join(base, "link")
	if err := os.Symlink(place, link); err != nil {
		t.Fatal(err)
	}
	l, err := Acquire(place, Holder{Run: "20261207-081437-abcdef", Kind: KindExec, Started: time.Now()})
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{place, link, link + "/.", filepath.Join(place, "vendor", "lib"), filepath.Join(base, "work")} {
		_, err := Acquire(p, Holder{Run: "20261207-081500-123456", Kind: KindExec, Started: time.Now()})
		b := busy(t, err)
		msg := err.Error()
		for _, want := range []string{"20261207-081437-abcdef", "pid " + strconv.Itoa(os.Getpid()), "started ", "wait for it", "kill " + strconv.Itoa(os.Getpid())} {
			if !strings.Contains(msg, want) {
				t.Errorf("%s: the refusal %q does not say %q", p, msg, want)
			}
		}
		if strings.Contains(msg, "\n") {
			t.Errorf("the refusal is not one line: %q", msg)
		}
		if b.Holder.Run != "20261207-081437-abcdef" {
			t.Errorf("%s: names %q", p, b.Holder.Run)
		}
		if Live(p) == nil {
			t.Errorf("%s: Live says no holder", p)
		}
	}
	s, err := Acquire(sibling, Holder{Run: "20261207-081500-654321", Kind: KindExec, Started: time.Now()})
	if err != nil {
		t.Fatalf("a sibling place is refused: %v", err)
	}
	s.Release()
	l.Release()
	again, err := Acquire(link, Holder{Run: "20261207-081600-123456", Kind: KindExec, Started: time.Now()})
	if err != nil {
		t.Fatalf("after the release: %v", err)
	}
	again.Release()
}

// plant writes a lock file for place as a holder h left it, held (by an
// open file of the test's, as a leaked descriptor would be) or not.
func plant(t *testing.T, place string, h Holder, held bool) {
	t.Helper()
	dir, mu, err := enter()
	if err != nil {
		t.Fatal(err)
	}
	leave(mu)
	id, err := identify(place)
	if err != nil {
		t.Fatal(err)
	}
	h.Root, h.Dev, h.Ino = place, id.dev, id.ino
	b, _ := json.Marshal(h)
	path := filepath.Join(dir, id.file())
	if err := os.WriteFile(path, b, 0o600); err != nil {
		t.Fatal(err)
	}
	if held {
		f, err := os.Open(path)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { f.Close() })
		if err := filelock.Lock(f); err != nil {
			t.Fatal(err)
		}
	}
}

func deadPID(t *testing.T) int {
	t.Helper()
	c := exec.Command("true")
	if err := c.Run(); err != nil {
		t.Skip("no true:", err)
	}
	return c.Process.Pid
}

// A lock whose holder died is taken over: its lock free, its pid gone,
// or its pid another process now (the start time differs).
func TestStaleLockIsTakenOver(t *testing.T) {
	base := setup(t)
	me := os.Getpid()
	for name, c := range map[string]struct {
		h    Holder
		held bool
	}{
		"lock free":  {Holder{Run: "r1", Kind: KindExec, PID: me, PIDStart: processStart(me)}, false},
		"pid gone":   {Holder{Run: "r2", Kind: KindExec, PID: deadPID(t)}, true},
		"pid reused": {Holder{Run: "r3", Kind: KindExec, PID: me, PIDStart: processStart(me) - 1000}, true},
	} {
		place := mkdir(t, filepath.Join(base, strings.ReplaceAll(name, " ", "-")))
		plant(t, place, c.h, c.held)
		l, err := Acquire(place, Holder{Run: "new", Kind: KindExec, Started: time.Now()})
		if err != nil {
			t.Fatalf("%s: the stale lock was not taken over: %v", name, err)
		}
		l.Release()
	}
	// The live one, for contrast: held and its pid this process.
	place := mkdir(t, filepath.Join(base, "live"))
	plant(t, place, Holder{Run: "r4", Kind: KindExec, PID: me, PIDStart: processStart(me)}, true)
	if _, err := Acquire(place, Holder{Run: "new", Kind: KindExec}); err == nil {
		t.Fatal("a live holder's lock was taken over")
	}
}

// Live of a file or of a path not there yet sees a place that holds it;
// of a folder that holds a live place, that place too.
func TestLiveOfAFileOrAMissingPath(t *testing.T) {
	base := setup(t)
	place := mkdir(t, filepath.Join(base, "home", "app"))
	notes := filepath.Join(base, "home", "notes.txt")
	if err := os.WriteFile(notes, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(place, "main.go"), nil, 0o600); err != nil {
		t.Fatal(err)
	}
	l, err := Acquire(place, Holder{Run: "r", Kind: KindExec, Started: time.Now()})
	if err != nil {
		t.Fatal(err)
	}
	defer l.Release()
	for _, p := range []string{filepath.Join(place, "main.go"), filepath.Join(place, "new", "file"), filepath.Join(base, "home")} {
		busy(t, Live(p))
	}
	for _, p := range []string{notes, filepath.Join(base, "home", "other.txt")} {
		if err := Live(p); err != nil {
			t.Errorf("%s beside the place: %v", p, err)
		}
	}
}
