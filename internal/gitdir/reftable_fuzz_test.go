package gitdir

import (
	"os"
	"path/filepath"
	"testing"
	"time"
)

// FuzzReadTable feeds hostile tables to the reftable reader: it must
// answer (a table or an error) without a panic or an allocation beyond
// the table's size.
func FuzzReadTable(f *testing.F) {
	ms, _ := filepath.Glob("testdata/reftable/*/reftable/*.ref")
	for _, m := range ms {
		b, err := os.ReadFile(m)
		if err == nil {
			f.Add(b)
		}
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		refs, logs := map[string]string{}, map[string]int{}
		_ = readTable(b, refs, logs, []string{"refs/stash", "HEAD"}, newTableBudget())
	})
}

// An aligned table whose first block's type is a zero byte (padding
// where the first block should be) is read to its end: the reader
// stayed at that byte for ever, and the in-place watcher reading the
// coder's reftable with it never returned.
func TestReadTableEndsOnPaddingAtTheFirstBlock(t *testing.T) {
	b := make([]byte, 24+8+68)
	copy(b, "REFT\x01\x00\x00\x10") // version 1, blocks of 16 bytes
	done := make(chan error, 1)
	go func() { done <- readTable(b, map[string]string{}, map[string]int{}, nil, newTableBudget()) }()
	select {
	case <-done:
	case <-time.After(time.Minute): // a hang bound, not a timing assertion
		t.Fatal("readTable did not return on a table of zeros after its header")
	}
}
