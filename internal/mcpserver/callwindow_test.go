//go:build unix

package mcpserver

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/sentinelhq/sentinel/internal/poll"
)

// blocks is a result's text blocks.
func blocks(res *mcp.CallToolResult) []string {
	var out []string
	for _, c := range res.Content {
		if tc, ok := c.(*mcp.TextContent); ok {
			out = append(out, tc.Text)
		}
	}
	return out
}

// waitForContent waits until p holds want: a file `echo a > p` made is
// there before its text is, and a call starting in between sees the
// write as its own change (a bound on a hang only).
func waitForContent(t *testing.T, p, want string) {
	t.Helper()
	poll.Must(t, 5*time.Minute, p+" to hold "+strconv.Quote(want), func() bool {
		b, err := os.ReadFile(p)
		return err == nil && string(b) == want
	})
}

// Two exec calls running at once are each told their own changes, not
// the other's: A writes a.txt, then B starts and writes b.txt while A
// still runs, and A ends first. One window from A's start to its end
// told A b.txt as its own (and B's start took a.txt out of A's window);
// now A is told a.txt as its own and b.txt as changed while B ran too,
// and B is never told a.txt.
func TestConcurrentCallsAreToldTheirOwnChanges(t *testing.T) {
	t.Parallel()
	bin := helper(t)
	f := newFixture(t)
	cs, _ := session(t, mustConfig(t, f.config(`exec_mode = "unrestricted"`)), Options{Helper: bin})
	ctl := f.ro // readable to commands, written by the test
	run := func(line string) <-chan *mcp.CallToolResult {
		ch := make(chan *mcp.CallToolResult, 1)
		go func() {
			res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "exec", Arguments: map[string]any{"command": line, "cwd": f.rw}})
			if err != nil {
				res = &mcp.CallToolResult{IsError: true, Content: []mcp.Content{&mcp.TextContent{Text: err.Error()}}}
			}
			ch <- res
		}()
		return ch
	}
	wait := func(name string) string { // ctl as seen from the cwd: short, as a call is named
		return "until [ -e ../" + filepath.Base(ctl) + "/" + name + " ]; do sleep 0.05; done"
	}
	lineA := "echo a > a.txt; " + wait("go-a")
	lineB := "echo b > b.txt; " + wait("go-b")
	resA := run(lineA)
	waitForContent(t, filepath.Join(f.rw, "a.txt"), "a\n") // written, not only created: B must start after A's write
	resB := run(lineB)
	waitForContent(t, filepath.Join(f.rw, "b.txt"), "b\n")
	write(t, filepath.Join(ctl, "go-a"), "")
	a := <-resA
	write(t, filepath.Join(ctl, "go-b"), "")
	b := <-resB
	for name, res := range map[string]*mcp.CallToolResult{"A": a, "B": b} {
		if res.IsError || len(blocks(res)) != 2 {
			t.Fatalf("%s: want the answer and what it changed, got %q", name, blocks(res))
		}
	}
	changedA, changedB := blocks(a)[1], blocks(b)[1]
	own, shared, _ := strings.Cut(changedA, "\n")
	if !strings.Contains(own, "this call changed 1 path(s) in "+f.rw+": A a.txt") || strings.Contains(own, "b.txt") {
		t.Errorf("A is not told a.txt alone as its own:\n%s", changedA)
	}
	if !strings.Contains(shared, "while another writing call ran too (exec: "+lineB+")") || !strings.Contains(shared, "A b.txt") {
		t.Errorf("A is not told b.txt as changed while B ran:\n%s", changedA)
	}
	if _, namedB, _ := strings.Cut(changedB, "changed them: "); strings.Contains(namedB, "a.txt") || strings.Contains(changedB, "this call changed") {
		t.Errorf("B is told a change of its own or a.txt (A's, made before B started):\n%s", changedB)
	}
	if !strings.Contains(changedB, "while another writing call ran too (exec: "+lineA+")") || !strings.Contains(changedB, "A b.txt") {
		t.Errorf("B is not told b.txt as changed while A ran:\n%s", changedB)
	}
}

// With the points before calls off (a bound reached, a failure), what a
// call changed and its flags are still told, from a stamp of the place:
// only new run-later names were told before.
func TestCallFlagsWithoutCheckpoints(t *testing.T) {
	t.Parallel()
	bin := helper(t)
	f := newFixture(t)
	warn := &syncBuffer{}
	cs, srv := session(t, mustConfig(t, f.config(`exec_mode = "unrestricted"`)), Options{Helper: bin, Warn: warn})
	srv.points.mu.Lock()
	srv.points.stop("a test")
	srv.points.mu.Unlock()
	answer, changed, isErr := callBlocks(t, cs, "exec", map[string]any{"command": "chmod o+w notes.txt && echo x > new.txt", "cwd": f.rw})
	if isErr {
		t.Fatalf("refused: %s", answer)
	}
	abs := filepath.Join(f.rw, "notes.txt")
	if !strings.Contains(answer, abs+": made") || !strings.Contains(warn.String(), "DANGEROUS: the call changed "+abs+": made") {
		t.Errorf("notes.txt made writable by everyone is not told with points off:\n%s\n--\n%s", answer, warn.String())
	}
	if !strings.Contains(changed, "A new.txt") || !strings.Contains(changed, "notes.txt") {
		t.Errorf("the changed paths are not named with points off:\n%s", changed)
	}
	if n := pointCount(t, srv); n != 0 {
		t.Errorf("%d points taken with points off", n)
	}
}

// pointCount is how many points the server took.
func pointCount(t *testing.T, srv *Server) int {
	t.Helper()
	srv.points.mu.Lock()
	defer srv.points.mu.Unlock()
	return srv.points.taken
}
