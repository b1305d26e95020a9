package approvals

import (
	"testing"
	"time"
)

// TestProxyGrantsAreFoundByHost: a second grant for a host renews the one
// template there is (found by host, not added again), a grant for another
// host or port adds its own, and a removed template is not renewed: the
// next grant for its host adds a new one the set holds.
func TestProxyGrantsAreFoundByHost(t *testing.T) {
	s := NewTemplateSet()
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	s.now = func() time.Time { return now }
	from := Origin{Run: "r", Request: "fetch"}
	a, added, err := s.grantToProxy(Match{Host: "docs.example.com:443"}, time.Minute, from)
	if err != nil || !added {
		t.Fatalf("first grant: added %v, %v", added, err)
	}
	now = now.Add(30 * time.Second)
	again, added, err := s.grantToProxy(Match{Host: "docs.example.com:443"}, time.Minute, from)
	if err != nil || added || again.ID != a.ID || !again.Expires.Equal(now.Add(time.Minute)) {
		t.Fatalf("second grant for the host: %+v added %v, %v", again, added, err)
	}
	if _, added, _ := s.grantToProxy(Match{Host: "docs.example.com:8443"}, time.Minute, from); !added {
		t.Fatal("another port renewed the first host's template")
	}
	if n := len(proxyGrants(s)); n != 2 {
		t.Fatalf("%d proxy templates, want 2", n)
	}
	if err := s.Remove(a.ID); err != nil {
		t.Fatal(err)
	}
	b, added, err := s.grantToProxy(Match{Host: "docs.example.com:443"}, time.Minute, from)
	if err != nil || !added || b.ID == a.ID {
		t.Fatalf("a grant after its template was removed: %+v added %v, %v", b, added, err)
	}
	if _, ok := s.Get(b.ID); !ok {
		t.Fatal("the new template is not in the set")
	}
}
