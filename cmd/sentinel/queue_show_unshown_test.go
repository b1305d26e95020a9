package main

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/sentinelhq/sentinel/approvals"
	"github.com/sentinelhq/sentinel/approvals/queue"
	"github.com/sentinelhq/sentinel/policy"
)

// sentinel queue show prints a write whose content cannot be shown as
// text as its summary (why, size, hash, hexdump) with the --seen hash that
// approves it, as the console's card and --plain do; before, it could only
// be denied here.
func TestQueueShowSummarisesAWriteItCannotShowAsText(t *testing.T) {
	e := queue.Entry{ID: "q1", Run: "r1", Kind: policy.KindWrite,
		Request: approvals.Request{Kind: policy.KindWrite, Path: "/w/blob", Input: []byte("\x7fELF\x00\x01 not json")}}
	var b bytes.Buffer
	writeQueueCard(&b, e, time.Now())
	out := b.String()
	seen := queue.SeenOf(e.Request)
	for _, want := range []string{"not shown in full: its input is not a write Sentinel can read", "size: ", "sha256: ",
		"# 00000000  7f 45 4c 46 00 01", "|.ELF..", "approve:  sentinel queue approve q1 --seen " + seen} {
		if !strings.Contains(out, want) {
			t.Errorf("queue show does not print %q:\n%s", want, out)
		}
	}
}
