package journal

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/sentinelhq/sentinel/internal/testbin"
)

// fullDisk is a journal file on a disk with room for left more bytes: a
// write that does not fit is written in part and fails, as write(2) does
// on a full disk.
type fullDisk struct {
	*os.File
	left int
}

func (d *fullDisk) Write(p []byte) (int, error) {
	if len(p) <= d.left {
		d.left -= len(p)
		return d.File.Write(p)
	}
	n, _ := d.File.Write(p[:d.left])
	d.left = 0
	return n, syscall.ENOSPC
}

func TestAFailedWriteLeavesNoTornLineAndFailsTheJournal(t *testing.T) {
	path := filepath.Join(t.TempDir(), "events.jsonl")
	f, err := os.OpenFile(path, os.O_CREATE|os.O_RDWR|os.O_APPEND, 0o600)
	if err != nil {
		t.Fatal(err)
	}
	j := newJournal(&fullDisk{File: f, left: 300}, path, "r1", 0, 0)
	var werr error
	for i := 0; i < 20 && werr == nil; i++ {
		_, werr = j.Append(Coder, "output", strings.Repeat("x", 60), nil)
	}
	if werr == nil {
		t.Fatal("every append succeeded on a full disk")
	}
	if !errors.Is(werr, syscall.ENOSPC) || !strings.Contains(werr.Error(), path) {
		t.Errorf("the error %q does not name the journal and the cause", werr)
	}
	select {
	case <-j.Failed():
	default:
		t.Fatal("Failed() is not closed after a failed write")
	}
	if !errors.Is(j.Err(), syscall.ENOSPC) {
		t.Errorf("Err() = %v", j.Err())
	}
	b, _ := os.ReadFile(path)
	if len(b) == 0 || b[len(b)-1] != '\n' {
		t.Fatalf("the journal ends in a torn line:\n%q", b)
	}
	evs, err := ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(string(b), "\n"); len(evs) != n || evs[len(evs)-1].Seq != int64(n) {
		t.Errorf("%d events for %d lines", len(evs), n)
	}
	// A later, smaller event would fit, but the journal stays failed: a run
	// with a gap in its record must not go on as if it had none.
	before := len(b)
	if _, err := j.Append(System, "x", "", nil); err == nil {
		t.Error("an append after the failure succeeded")
	}
	if b, _ := os.ReadFile(path); len(b) != before {
		t.Error("an append after the failure wrote to the file")
	}
	j.Close()
}

func TestOpenCutsATornLastLine(t *testing.T) {
	path := filepath.Join(t.TempDir(), "events.jsonl")
	j, err := Open(path, "r1")
	if err != nil {
		t.Fatal(err)
	}
	j.Append(System, "a", "", nil)
	j.Close()
	f, _ := os.OpenFile(path, os.O_WRONLY|os.O_APPEND, 0)
	f.WriteString(`{"seq":2,"time":"2026-`) // a crash mid-write
	f.Close()
	if j, err = Open(path, "r1"); err != nil {
		t.Fatal(err)
	}
	if _, err := j.Append(System, "b", "", nil); err != nil {
		t.Fatal(err)
	}
	j.Close()
	evs, err := ReadFile(path)
	if err != nil {
		t.Fatalf("the journal does not read back: %v", err)
	}
	if len(evs) != 2 || evs[1].Kind != "b" || evs[1].Seq != 2 {
		t.Errorf("events = %+v", evs)
	}
}

// TestAFullFilesystemLeavesNoTornLine fills a real 64 KiB tmpfs (root only).
func TestAFullFilesystemLeavesNoTornLine(t *testing.T) {
	dir := t.TempDir()
	testbin.Tmpfs(t, dir, "64k")
	path := filepath.Join(dir, "events.jsonl")
	j, err := Open(path, "r1")
	if err != nil {
		t.Fatal(err)
	}
	var werr error
	for i := 0; i < 10000 && werr == nil; i++ {
		_, werr = j.Append(Coder, "output", strings.Repeat("y", 777), nil)
	}
	j.Close()
	if !errors.Is(werr, syscall.ENOSPC) {
		t.Fatalf("filling the disk gave %v; want no space left on device", werr)
	}
	b, _ := os.ReadFile(path)
	if len(b) == 0 || b[len(b)-1] != '\n' {
		t.Fatalf("the journal on the full disk ends in a torn line (%d bytes)", len(b))
	}
	if _, err := ReadFile(path); err != nil {
		t.Fatal(err)
	}
}

func TestSubscribersAreToldTheJournalFailed(t *testing.T) {
	path := filepath.Join(t.TempDir(), "events.jsonl")
	f, err := os.OpenFile(path, os.O_CREATE|os.O_RDWR|os.O_APPEND, 0o600)
	if err != nil {
		t.Fatal(err)
	}
	j := newJournal(&fullDisk{File: f, left: 10}, path, "r1", 0, 0)
	evs, cancel := j.Subscribe(4, true)
	defer cancel()
	if _, err := j.Append(System, "x", "", nil); err == nil {
		t.Fatal("the append fitted")
	}
	ev := <-evs
	if ev.Kind != KindFailed || !strings.Contains(ev.Text, "no space left on device") {
		t.Errorf("subscribers got %+v; want the failure", ev)
	}
	j.Close()
}
