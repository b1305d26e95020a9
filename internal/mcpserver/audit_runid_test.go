//go:build unix

package mcpserver

import "testing"

// Two servers one process makes in the same second each get a run id and
// a default audit file of their own: the second one used to find the
// first one's audit locked and refuse to start.
func TestServersOfOneProcessHaveAuditsOfTheirOwn(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	cfg := mustConfig(t, f.config(""))
	var ids []string
	for range 2 {
		srv, err := New(cfg, Options{Transport: "memory"})
		if err != nil {
			t.Fatalf("server %d of this process: %v", len(ids)+1, err)
		}
		t.Cleanup(func() { srv.Close() })
		ids = append(ids, srv.RunID())
	}
	if ids[0] == ids[1] {
		t.Fatalf("both servers are run %s", ids[0])
	}
}
