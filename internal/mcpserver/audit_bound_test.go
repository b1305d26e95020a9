//go:build unix

package mcpserver

import (
	"bufio"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"runtime"
	"strings"
	"testing"
)

const fifteenMiB = 15 << 20

// hugeEdit streams a tools/call edit whose content is n bytes of 'a' to w
// (from one small buffer, so the test itself holds little) and returns the
// sha256 of what it wrote, without the line's newline. A write error (the
// reader gone) ends it early.
func hugeEdit(w io.Writer, path string, n int) (sum string, size int64) {
	h := sha256.New()
	out := io.MultiWriter(w, h)
	head := `{"jsonrpc":"2.0","id":9,"method":"tools/call","params":{"name":"edit","arguments":{"path":"` + path + `","content":"`
	tail := `"}}}`
	io.WriteString(out, head)
	chunk := []byte(strings.Repeat("a", 64<<10))
	for left := n; left > 0; left -= len(chunk) {
		if _, err := out.Write(chunk[:min(len(chunk), left)]); err != nil {
			return "", 0
		}
	}
	io.WriteString(out, tail)
	io.WriteString(w, "\n")
	return hex.EncodeToString(h.Sum(nil)), int64(len(head) + n + len(tail))
}

func fileSize(t *testing.T, p string) int64 {
	t.Helper()
	fi, err := os.Stat(p)
	if err != nil {
		t.Fatal(err)
	}
	return fi.Size()
}

// A 15 MiB edit on stdio is refused before it is decoded: the client hears
// a JSON-RPC error, the audit gains one line under 8 KiB (size, sha256, the
// first KiB), and the server never holds the request whole. Not parallel:
// it counts the process's allocations (runtime.MemStats), and a parallel
// test's would be counted too (it failed so in a full run once the package
// ran its tests in parallel).
func TestAHugeStdioRequestIsRefusedAndAuditedSmall(t *testing.T) {
	f := newFixture(t)
	srv, err := New(mustConfig(t, f.config("")), Options{Transport: "stdio"})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	go func() { srv.ServeStdio(context.Background(), inR, outW); outW.Close() }()
	defer inW.Close()
	lines := bufio.NewScanner(outR)
	lines.Buffer(nil, 1<<20)
	next := func() map[string]any {
		t.Helper()
		if !lines.Scan() {
			t.Fatalf("the server stopped: %v", lines.Err())
		}
		var m map[string]any
		json.Unmarshal(lines.Bytes(), &m)
		return m
	}
	io.WriteString(inW, initBody+"\n")
	next()
	io.WriteString(inW, `{"jsonrpc":"2.0","method":"notifications/initialized"}`+"\n")
	before := fileSize(t, srv.AuditPath())
	var ms runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&ms)
	alloc := ms.TotalAlloc
	sum, size := hugeEdit(inW, f.rw+"/big.txt", fifteenMiB)
	m := next()
	runtime.ReadMemStats(&ms)
	if e, _ := m["error"].(map[string]any); e == nil || e["code"] != float64(-32600) || !strings.Contains(e["message"].(string), "over this server's") {
		t.Fatalf("a 15 MiB request: %v", m)
	}
	// The cap is 3 × 1 MiB + 256 KiB; reading up to it, with a buffer that
	// grows by doubling, allocates under twice that. Decoding the whole
	// request would allocate several times 15 MiB.
	if got := ms.TotalAlloc - alloc; got > 4*uint64(srv.cfg.Limits.MaxRequestBytes()) {
		t.Errorf("the server allocated %d bytes for a refused %d-byte request", got, size)
	}
	if grew := fileSize(t, srv.AuditPath()) - before; grew >= 8<<10 {
		t.Errorf("the audit grew by %d bytes for one refused request", grew)
	}
	calls := auditCalls(t, srv)
	last := calls[len(calls)-1]
	if last.Tool != "request" || last.Class != ClassLimit || last.ArgsSummary == nil || last.Args != nil {
		t.Fatalf("the audit line: %+v", last)
	}
	if s := last.ArgsSummary; s.Size != size || s.SHA256 != sum || !strings.HasPrefix(s.Head, `{"jsonrpc":"2.0","id":9`) || len(s.Head) > 1024 {
		t.Errorf("the summary %+v, want size %d sha256 %s and the first KiB", s, size, sum)
	}
	// The session goes on.
	io.WriteString(inW, `{"jsonrpc":"2.0","id":10,"method":"tools/call","params":{"name":"read","arguments":{"path":"`+f.rw+`/notes.txt"}}}`+"\n")
	if m := next(); m["id"] != float64(10) || !strings.Contains(string(mustJSON(m)), "hello world") {
		t.Fatalf("the call after: %v", m)
	}
}

// The same over HTTP: 413 before decoding, and a small audit line.
func TestAHugeHTTPRequestIsRefusedAndAuditedSmall(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	srv, err := New(mustConfig(t, f.config("")), Options{Transport: "http"})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	const token = "0123456789abcdef0123456789abcdef"
	hs := httptest.NewServer(srv.Handler(token))
	defer hs.Close()
	before := fileSize(t, srv.AuditPath())
	pr, pw := io.Pipe()
	var sum string
	var size int64
	sent := make(chan struct{})
	go func() { sum, size = hugeEdit(pw, f.rw+"/big.txt", fifteenMiB); pw.Close(); close(sent) }()
	req, _ := http.NewRequest("POST", hs.URL, pr)
	req.Header.Set("Authorization", "Bearer "+token)
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	pr.Close()
	<-sent
	if resp.StatusCode != http.StatusRequestEntityTooLarge {
		t.Fatalf("a 15 MiB body: status %d", resp.StatusCode)
	}
	if grew := fileSize(t, srv.AuditPath()) - before; grew >= 8<<10 {
		t.Errorf("the audit grew by %d bytes for one refused request", grew)
	}
	calls := auditCalls(t, srv)
	if len(calls) != 1 || calls[0].ArgsSummary == nil || calls[0].ArgsSummary.Size != size+1 { // the body ends with a newline
		t.Fatalf("the audit: %+v (sent %d bytes, sha256 %s)", calls, size, sum)
	}
}

// Arguments under the cap but over a KiB — a refused 2 MiB edit, an
// allowed big one — are kept as their summary; small ones whole.
func TestTheAuditKeepsBigArgumentsAsASummary(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	cs, srv := session(t, mustConfig(t, f.config("")), Options{})
	before := fileSize(t, srv.AuditPath())
	big := strings.Repeat("b", 2<<20)
	mustRefuse(t, cs, "edit", map[string]any{"path": f.rw + "/big.txt", "content": big}, ClassLimit)
	if grew := fileSize(t, srv.AuditPath()) - before; grew >= 8<<10 {
		t.Errorf("the audit grew by %d bytes for a refused 2 MiB edit", grew)
	}
	mustAllow(t, cs, "edit", map[string]any{"path": f.rw + "/mid.txt", "content": strings.Repeat("c", 4<<10)})
	mustAllow(t, cs, "read", map[string]any{"path": f.rw + "/notes.txt"})
	calls := auditCalls(t, srv)
	if len(calls) != 3 {
		t.Fatalf("%d calls", len(calls))
	}
	for i, c := range calls[:2] {
		if c.Args != nil || c.ArgsSummary == nil || c.ArgsSummary.Size < 4<<10 || len(c.ArgsSummary.Head) > 1024 || len(c.ArgsSummary.SHA256) != 64 {
			t.Errorf("call %d (%s): args %d bytes, summary %+v", i, c.Tool, len(c.Args), c.ArgsSummary)
		}
	}
	if c := calls[2]; c.ArgsSummary != nil || !strings.Contains(string(c.Args), "notes.txt") {
		t.Errorf("a small call's arguments: %+v", c)
	}
}
