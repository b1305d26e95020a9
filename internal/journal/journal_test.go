package journal

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

func TestAppendWritesOneCompleteJSONLinePerEvent(t *testing.T) {
	path := filepath.Join(t.TempDir(), "events.jsonl")
	j, err := Open(path, "r1")
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	for i := 0; i < 8; i++ {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			for k := 0; k < 50; k++ {
				if _, err := j.Append(Coder, "output", strings.Repeat("x", i*100)+"\n\"quoted\"", map[string]int{"k": k}); err != nil {
					t.Error(err)
				}
			}
		}(i)
	}
	wg.Wait()
	if err := j.Close(); err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(path)
	lines := strings.Split(strings.TrimSuffix(string(b), "\n"), "\n")
	if len(lines) != 400 {
		t.Fatalf("got %d lines, want 400", len(lines))
	}
	seen := map[int64]bool{}
	for i, l := range lines {
		var ev Event
		if err := json.Unmarshal([]byte(l), &ev); err != nil {
			t.Fatalf("line %d is not valid JSON: %v", i+1, err)
		}
		if ev.Run != "r1" || ev.Lane != Coder || seen[ev.Seq] {
			t.Fatalf("line %d: bad event %+v", i+1, ev)
		}
		seen[ev.Seq] = true
	}
}

func TestReadIgnoresATornLastLineAndReportsACorruptOne(t *testing.T) {
	dir := t.TempDir()
	good := `{"seq":1,"time":"2026-01-01T00:00:00Z","run":"r","lane":"system","kind":"run-start","text":"hi"}` + "\n"
	torn := filepath.Join(dir, "torn.jsonl")
	os.WriteFile(torn, []byte(good+`{"seq":2,"time":"2026-01-01T00:00:0`), 0o600)
	evs, err := ReadFile(torn)
	if err != nil || len(evs) != 1 || evs[0].Text != "hi" {
		t.Fatalf("torn tail: got %v, %v; want the one complete event", evs, err)
	}
	bad := filepath.Join(dir, "bad.jsonl")
	os.WriteFile(bad, []byte(good+"not json\n"), 0o600)
	if _, err := ReadFile(bad); err == nil || !strings.Contains(err.Error(), "line 2") {
		t.Fatalf("corrupt line: err = %v, want one naming line 2", err)
	}
}

func TestReopenContinuesSequence(t *testing.T) {
	path := filepath.Join(t.TempDir(), "events.jsonl")
	j, _ := Open(path, "r")
	j.Append(System, "a", "", nil)
	j.Append(System, "b", "", nil)
	j.Close()
	j, _ = Open(path, "r")
	ev, _ := j.Append(System, "c", "", nil)
	j.Close()
	if ev.Seq != 3 {
		t.Fatalf("seq after reopen = %d, want 3", ev.Seq)
	}
}

func TestLosslessSubscriberGetsEverythingEvenWhenSlow(t *testing.T) {
	j, _ := Open(filepath.Join(t.TempDir(), "e.jsonl"), "r")
	ch, cancel := j.Subscribe(1, true)
	defer cancel()
	for i := 0; i < 1000; i++ {
		j.Append(Tool, "run", "x", nil) // never blocks on the reader
	}
	j.Close()
	n := 0
	for range ch {
		n++
	}
	if n != 1000 {
		t.Fatalf("lossless subscriber got %d events, want 1000", n)
	}
}

func TestLossySubscriberNeverBlocksTheWriter(t *testing.T) {
	j, _ := Open(filepath.Join(t.TempDir(), "e.jsonl"), "r")
	ch, cancel := j.Subscribe(2, false)
	for i := 0; i < 100; i++ {
		j.Append(Tool, "run", "x", nil)
	}
	if len(ch) != 2 {
		t.Fatalf("buffered %d, want 2 (the rest dropped)", len(ch))
	}
	cancel()
	cancel() // twice is fine
	j.Close()
}

// A journal path that is a symlink (planted in a run directory) is neither
// written nor read through.
func TestJournalNeverFollowsALink(t *testing.T) {
	dir := t.TempDir()
	target := filepath.Join(dir, "elsewhere")
	if err := os.WriteFile(target, []byte("{\"seq\":1}\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, "events.jsonl")
	if err := os.Symlink(target, link); err != nil {
		t.Fatal(err)
	}
	if j, err := Open(link, "r"); err == nil {
		j.Close()
		t.Fatal("opened a journal through a symlink")
	}
	if _, err := ReadFile(link); err == nil {
		t.Fatal("read a journal through a symlink")
	}
	if b, _ := os.ReadFile(target); string(b) != "{\"seq\":1}\n" {
		t.Fatalf("the link's target changed: %q", b)
	}
}
