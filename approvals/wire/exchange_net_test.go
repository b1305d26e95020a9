//go:build !linux && !darwin

package wire

import (
	"context"
	"strings"
	"testing"
	"time"
)

// exchangeNet is what Windows asks the broker with; it is tested here
// against the same fake broker as the raw-socket exchange.
func TestExchangeNetReadsTheAnswerAndFailsClosed(t *testing.T) {
	sock := fakeBroker(t, func(m Message) string {
		return "garbage\n" + `{"v":1,"type":"decision","id":"other","decision":{"decision":"deny","by":"x","reason":"not yours"}}` + "\n" +
			`{"v":1,"type":"decision","id":"` + m.ID + `","decision":{"decision":"allow","by":"person","reason":"` +
			strings.Repeat("r", 9000) + `"}}` + "\n"
	})
	r, err := exchangeNet(context.Background(), sock, Message{Type: TypeRequest, Request: &shell}, 0)
	d, err := DecisionIn(r, err)
	if err != nil || !d.Allowed() || d.By != "person" || len(d.Reason) != 9000 {
		t.Fatalf("exchangeNet = %+v, %v; want the person's allow with its long reason", d.By, err)
	}
	ln, silent := listen(t)
	go func() {
		c, err := ln.Accept()
		if err == nil {
			t.Cleanup(func() { c.Close() }) // holds the connection open, answering nothing
		}
	}()
	r, err = exchangeNet(context.Background(), silent, Message{Type: TypeRequest, Request: &shell}, 200*time.Millisecond)
	if d, _ := DecisionIn(r, err); d.Allowed() || d.By != "timeout" {
		t.Fatalf("a silent broker: %+v, %v; want a deny by timeout", d, err)
	}
	if _, err := exchangeNet(context.Background(), "", Message{Type: TypeRequest, Request: &shell}, 0); err == nil {
		t.Fatal("no socket path was not an error")
	}
}
