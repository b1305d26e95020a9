package fakemodel

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"testing"
	"time"
)

func TestScriptedFailureStatus(t *testing.T) {
	s, err := Start(Script{Fail(529), Reply(Text("after"))})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	body := `{"model":"m","stream":false,"messages":[{"role":"user","content":"hi"}],"tools":[{"name":"x"}]}`
	resp := post(t, s, "/v1/messages", body)
	if resp.StatusCode != 529 {
		t.Fatalf("status %d, want 529", resp.StatusCode)
	}
	resp = post(t, s, "/v1/messages", body)
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("the next turn: status %d, want 200", resp.StatusCode)
	}
}

func TestScriptedHangEndsWithTheClient(t *testing.T) {
	s, err := Start(Script{Hang()})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, http.MethodPost, s.URL+"/v1/messages",
		strings.NewReader(`{"model":"m","messages":[],"tools":[{"name":"x"}]}`))
	_, err = http.DefaultClient.Do(req)
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("err = %v, want the client's deadline", err)
	}
	if s.Used() != 1 {
		t.Errorf("Used = %d, want the hanging turn consumed", s.Used())
	}
}
