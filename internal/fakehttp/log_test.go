package fakehttp

import "testing"

func TestLogKeepsKindsApartAndWakesWaiters(t *testing.T) {
	var l Log[string]
	wait := l.Changed()
	l.Record(Main, "turn 1")
	select {
	case <-wait:
	default:
		t.Fatal("Changed was not closed by a new request")
	}
	l.Record(Side, "title")
	l.Record(Other, "HEAD /")
	l.Record(Main, "turn 2")
	if got := l.Requests(); len(got) != 2 || got[0] != "turn 1" || got[1] != "turn 2" {
		t.Fatalf("Requests = %v", got)
	}
	if got := l.SideRequests(); len(got) != 1 || got[0] != "title" {
		t.Fatalf("SideRequests = %v", got)
	}
	if got := l.OtherRequests(); len(got) != 1 || got[0] != "HEAD /" {
		t.Fatalf("OtherRequests = %v", got)
	}
	got := l.Requests()
	got[0] = "changed by the caller"
	if l.Requests()[0] != "turn 1" {
		t.Fatal("Requests returned the log's own slice")
	}
}
