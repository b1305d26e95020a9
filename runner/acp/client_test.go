package acp

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	sdk "github.com/coder/acp-go-sdk"

	"github.com/sentinelhq/sentinel/approvals"
	"github.com/sentinelhq/sentinel/internal/journal"
	"github.com/sentinelhq/sentinel/policy"
)

// fakeBroker records every request and answers with decide (allow when nil).
type fakeBroker struct {
	mu     sync.Mutex
	asked  []approvals.Request
	decide func(approvals.Request) approvals.Decision
}

func (b *fakeBroker) ask(_ context.Context, r approvals.Request) approvals.Decision {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.asked = append(b.asked, r)
	if b.decide != nil {
		return b.decide(r)
	}
	return approvals.Decision{Outcome: approvals.OutcomeAllow, By: "test"}
}

func (b *fakeBroker) requests() []approvals.Request {
	b.mu.Lock()
	defer b.mu.Unlock()
	return append([]approvals.Request(nil), b.asked...)
}

func deny(msg string) func(approvals.Request) approvals.Decision {
	return func(approvals.Request) approvals.Decision {
		return approvals.Decision{Outcome: approvals.OutcomeDeny, By: "test", Reason: "denied by test", Message: msg}
	}
}

// testClient is a client serving a fresh workspace; it returns the
// workspace, the broker and the lines emitted.
func testClient(t *testing.T) (*client, string, *fakeBroker, *[]Line) {
	t.Helper()
	ws, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	root, err := os.OpenRoot(ws)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { root.Close() })
	b := &fakeBroker{}
	var mu sync.Mutex
	lines := &[]Line{}
	emit := func(l Line) { mu.Lock(); *lines = append(*lines, l); mu.Unlock() }
	c := &client{ws: ws, root: root, ask: b.ask, emit: emit, lines: newLineWriter(emit), granted: map[string]int{}}
	return c, ws, b, lines
}

func writeFile(t *testing.T, path, content string, mode os.FileMode) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), mode); err != nil {
		t.Fatal(err)
	}
}

func readFile(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// rpcCode is the JSON-RPC code of err, or 0 when it is not a RequestError.
func rpcCode(err error) int {
	var re *sdk.RequestError
	if errors.As(err, &re) {
		return re.Code
	}
	return 0
}

func TestReadTextFile(t *testing.T) {
	t.Parallel()
	c, ws, b, _ := testClient(t)
	writeFile(t, filepath.Join(ws, "src", "a.txt"), "one\ntwo\nthree\nfour\n", 0o644)
	n := func(i int) *int { return &i }
	tests := []struct {
		name        string
		line, limit *int
		want        string
	}{
		{"whole file", nil, nil, "one\ntwo\nthree\nfour\n"},
		{"from line 2", n(2), nil, "two\nthree\nfour\n"},
		{"line 2 for 2 lines", n(2), n(2), "two\nthree\n"},
		{"first line only", nil, n(1), "one\n"},
		{"past the end", n(9), n(3), ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res, err := c.ReadTextFile(context.Background(), sdk.ReadTextFileRequest{Path: filepath.Join(ws, "src", "a.txt"), Line: tt.line, Limit: tt.limit})
			if err != nil {
				t.Fatalf("ReadTextFile: %v", err)
			}
			if res.Content != tt.want {
				t.Errorf("content %q, want %q", res.Content, tt.want)
			}
		})
	}
	asked := b.requests()
	if len(asked) != len(tests) || asked[0].Kind != policy.KindRead || asked[0].Path != filepath.Join(ws, "src", "a.txt") {
		t.Errorf("broker asked %+v, want one read of src/a.txt per read", asked)
	}
}

func TestReadTextFileMissingIsResourceNotFound(t *testing.T) {
	t.Parallel()
	c, ws, _, _ := testClient(t)
	_, err := c.ReadTextFile(context.Background(), sdk.ReadTextFileRequest{Path: filepath.Join(ws, "nope.txt")})
	if rpcCode(err) != -32002 {
		t.Errorf("ReadTextFile of a missing file = %v, want a RequestError with code -32002", err)
	}
}

func TestReadTextFileDenied(t *testing.T) {
	t.Parallel()
	c, ws, b, _ := testClient(t)
	writeFile(t, filepath.Join(ws, "secret.env"), "TOKEN=abc", 0o644)
	b.decide = deny("no")
	res, err := c.ReadTextFile(context.Background(), sdk.ReadTextFileRequest{Path: filepath.Join(ws, "secret.env")})
	if err == nil || strings.Contains(res.Content, "TOKEN") {
		t.Errorf("denied read returned %q, %v; want an error and no content", res.Content, err)
	}
}

func TestFileRequestsOutsideTheWorkspaceAreRefusedWithoutAsking(t *testing.T) {
	t.Parallel()
	c, ws, b, _ := testClient(t)
	outside := filepath.Join(filepath.Dir(ws), "outside-"+filepath.Base(ws)+".txt")
	writeFile(t, outside, "outside", 0o644)
	t.Cleanup(func() { os.Remove(outside) })
	for _, p := range []string{"relative.txt", "./relative.txt", outside, ws + "/../" + filepath.Base(outside), "/etc/passwd"} {
		t.Run(p, func(t *testing.T) {
			res, err := c.ReadTextFile(context.Background(), sdk.ReadTextFileRequest{Path: p})
			if rpcCode(err) != -32602 || res.Content != "" {
				t.Errorf("read %s = %q, %v; want a -32602 refusal", p, res.Content, err)
			}
			if _, err := c.WriteTextFile(context.Background(), sdk.WriteTextFileRequest{Path: p, Content: "pwned"}); rpcCode(err) != -32602 {
				t.Errorf("write %s = %v; want a -32602 refusal", p, err)
			}
		})
	}
	if got := readFile(t, outside); got != "outside" {
		t.Errorf("the outside file now holds %q", got)
	}
	if asked := b.requests(); len(asked) != 0 {
		t.Errorf("the broker was asked %+v; requests outside the workspace must be refused first", asked)
	}
}

func TestSymlinksDoNotLeaveTheWorkspace(t *testing.T) {
	t.Parallel()
	c, ws, _, _ := testClient(t)
	outDir := t.TempDir()
	secret := filepath.Join(outDir, "secret.txt")
	writeFile(t, secret, "the secret", 0o600)
	if err := os.Symlink(secret, filepath.Join(ws, "link.txt")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(outDir, filepath.Join(ws, "linkdir")); err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()

	for _, p := range []string{"link.txt", "linkdir/secret.txt"} {
		res, err := c.ReadTextFile(ctx, sdk.ReadTextFileRequest{Path: filepath.Join(ws, p)})
		if err == nil || strings.Contains(res.Content, "the secret") || strings.Contains(err.Error(), "the secret") {
			t.Errorf("read %s through a symlink = %q, %v; want an error and no secret", p, res.Content, err)
		}
		if _, err := c.WriteTextFile(ctx, sdk.WriteTextFileRequest{Path: filepath.Join(ws, p), Content: "overwritten"}); err == nil {
			t.Errorf("write %s through a symlink succeeded", p)
		}
	}
	if _, err := c.WriteTextFile(ctx, sdk.WriteTextFileRequest{Path: filepath.Join(ws, "linkdir", "new", "planted.txt"), Content: "x"}); err == nil {
		t.Errorf("write under a symlinked directory succeeded")
	}
	if got := readFile(t, secret); got != "the secret" {
		t.Errorf("the file outside now holds %q", got)
	}
	entries, _ := os.ReadDir(outDir)
	if len(entries) != 1 {
		t.Errorf("the directory outside now holds %d entries, want only secret.txt", len(entries))
	}
}

// editCall is a permission request for an edit of path.
func editCall(path string) sdk.RequestPermissionRequest {
	k := sdk.ToolKindEdit
	title := "WriteFile " + path
	return sdk.RequestPermissionRequest{
		ToolCall: sdk.ToolCallUpdate{ToolCallId: "w1", Kind: &k, Title: &title,
			Content: []sdk.ToolCallContent{sdk.ToolDiffContent(path, "new")}},
		Options: []sdk.PermissionOption{
			{OptionId: "yes", Kind: sdk.PermissionOptionKindAllowOnce, Name: "Allow"},
			{OptionId: "no", Kind: sdk.PermissionOptionKindRejectOnce, Name: "Reject"},
		},
	}
}

func TestWriteAfterPermissionDoesNotAskAgainOnce(t *testing.T) {
	t.Parallel()
	c, ws, b, lines := testClient(t)
	ctx := context.Background()
	path := filepath.Join(ws, "out.txt")
	res, err := c.RequestPermission(ctx, editCall(path))
	if err != nil || res.Outcome.Selected == nil || res.Outcome.Selected.OptionId != "yes" {
		t.Fatalf("RequestPermission = %+v, %v; want option yes", res.Outcome, err)
	}
	if n := len(b.requests()); n != 1 {
		t.Fatalf("broker asked %d times for the permission request, want 1", n)
	}
	if _, err := c.WriteTextFile(ctx, sdk.WriteTextFileRequest{Path: path, Content: "first"}); err != nil {
		t.Fatalf("granted write: %v", err)
	}
	if n := len(b.requests()); n != 1 {
		t.Errorf("broker asked %d times after the granted write, want still 1", n)
	}
	if got := readFile(t, path); got != "first" {
		t.Errorf("out.txt = %q, want first", got)
	}
	if _, err := c.WriteTextFile(ctx, sdk.WriteTextFileRequest{Path: path, Content: "second"}); err != nil {
		t.Fatalf("second write: %v", err)
	}
	asked := b.requests()
	if len(asked) != 2 || asked[1].Kind != policy.KindEdit || asked[1].Path != path {
		t.Errorf("broker asked %+v; the second write must be asked about as an edit of out.txt (the grant is used once)", asked)
	}
	var wrote int
	for _, l := range *lines {
		if l.Lane == journal.Tool && l.Kind == "write" && strings.Contains(l.Text, "out.txt") {
			wrote++
		}
	}
	if wrote != 2 {
		t.Errorf("tool lane got %d write lines, want 2: %+v", wrote, *lines)
	}
}

func TestWriteWithoutPermission(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name     string
		existing bool
		allow    bool
		wantKind policy.Kind
	}{
		{"new file allowed", false, true, policy.KindWrite},
		{"existing file allowed", true, true, policy.KindEdit},
		{"new file denied", false, false, policy.KindWrite},
		{"existing file denied", true, false, policy.KindEdit},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, ws, b, _ := testClient(t)
			path := filepath.Join(ws, "f.txt")
			if tt.existing {
				writeFile(t, path, "before", 0o644)
			}
			if !tt.allow {
				b.decide = deny("keep f.txt as it is")
			}
			_, err := c.WriteTextFile(context.Background(), sdk.WriteTextFileRequest{Path: path, Content: "after"})
			asked := b.requests()
			if len(asked) != 1 || asked[0].Kind != tt.wantKind || asked[0].Path != path || asked[0].Adapter != "acp" {
				t.Fatalf("broker asked %+v, want one %s of %s", asked, tt.wantKind, path)
			}
			got, readErr := os.ReadFile(path)
			if tt.allow {
				if err != nil || string(got) != "after" {
					t.Errorf("allowed write: err %v, file %q; want it written", err, got)
				}
				if d := c.takeDenials(); len(d) != 0 {
					t.Errorf("denials %v after an allow", d)
				}
				return
			}
			if err == nil {
				t.Errorf("denied write returned no error")
			}
			switch {
			case tt.existing && string(got) != "before":
				t.Errorf("denied write changed the file to %q", got)
			case !tt.existing && readErr == nil:
				t.Errorf("denied write created the file")
			}
			d := c.takeDenials()
			if len(d) != 1 || !strings.Contains(d[0], "keep f.txt as it is") || !strings.Contains(d[0], path) {
				t.Errorf("denials %q, want one naming %s with the message", d, path)
			}
			if again := c.takeDenials(); len(again) != 0 {
				t.Errorf("takeDenials did not forget: %q", again)
			}
		})
	}
}

func TestWriteMakesDirectoriesAndKeepsMode(t *testing.T) {
	t.Parallel()
	c, ws, _, _ := testClient(t)
	ctx := context.Background()
	deep := filepath.Join(ws, "a", "b", "c.txt")
	if _, err := c.WriteTextFile(ctx, sdk.WriteTextFileRequest{Path: deep, Content: "deep"}); err != nil {
		t.Fatalf("write into new directories: %v", err)
	}
	if got := readFile(t, deep); got != "deep" {
		t.Errorf("a/b/c.txt = %q", got)
	}
	script := filepath.Join(ws, "run.sh")
	writeFile(t, script, "#!/bin/sh\n", 0o755)
	if err := os.Chmod(script, 0o755); err != nil {
		t.Fatal(err)
	}
	if _, err := c.WriteTextFile(ctx, sdk.WriteTextFileRequest{Path: script, Content: "#!/bin/sh\necho hi\n"}); err != nil {
		t.Fatalf("rewrite run.sh: %v", err)
	}
	st, err := os.Stat(script)
	if err != nil || st.Mode().Perm() != 0o755 || readFile(t, script) != "#!/bin/sh\necho hi\n" {
		t.Errorf("run.sh after the write: mode %v, err %v; want 0755 kept and the new content", st.Mode(), err)
	}
}

func TestRequestPermissionDenyAsksNoFurtherAndRemembers(t *testing.T) {
	t.Parallel()
	c, ws, b, _ := testClient(t)
	k := sdk.ToolKindEdit
	title := "Edit two files"
	p := sdk.RequestPermissionRequest{
		ToolCall: sdk.ToolCallUpdate{ToolCallId: "e2", Kind: &k, Title: &title,
			Content: []sdk.ToolCallContent{sdk.ToolDiffContent(filepath.Join(ws, "a"), "x", "y"), sdk.ToolDiffContent(filepath.Join(ws, "b"), "x", "y")}},
		Options: []sdk.PermissionOption{
			{OptionId: "always", Kind: sdk.PermissionOptionKindAllowAlways},
			{OptionId: "once", Kind: sdk.PermissionOptionKindAllowOnce},
			{OptionId: "reject", Kind: sdk.PermissionOptionKindRejectOnce},
		},
	}
	b.decide = deny("not those files")
	res, err := c.RequestPermission(context.Background(), p)
	if err != nil || res.Outcome.Selected == nil || res.Outcome.Selected.OptionId != "reject" {
		t.Fatalf("RequestPermission = %+v, %v; want reject", res.Outcome, err)
	}
	if n := len(b.requests()); n != 1 {
		t.Errorf("broker asked %d times; after the first deny nothing more should be asked", n)
	}
	if d := c.takeDenials(); len(d) != 1 || !strings.Contains(d[0], "not those files") {
		t.Errorf("denials %q, want the deny's message", d)
	}
	// A denied permission grants no write.
	b.decide = nil
	if _, err := c.WriteTextFile(context.Background(), sdk.WriteTextFileRequest{Path: filepath.Join(ws, "a"), Content: "x"}); err != nil {
		t.Fatal(err)
	}
	if n := len(b.requests()); n != 2 {
		t.Errorf("broker asked %d times; a write after a denied permission must be asked about", n)
	}
}

func TestTerminalsAreRefused(t *testing.T) {
	t.Parallel()
	c, _, _, _ := testClient(t)
	_, err := c.CreateTerminal(context.Background(), sdk.CreateTerminalRequest{Command: "sh"})
	if rpcCode(err) != -32601 {
		t.Errorf("CreateTerminal = %v, want method not found (-32601)", err)
	}
}

// After Sentinel cancels the turn (steering, stop), a permission request
// still pending is answered cancelled, whatever the broker then says, and
// grants no write.
func TestPermissionPendingAcrossACancelIsCancelled(t *testing.T) {
	t.Parallel()
	for _, allowed := range []bool{true, false} {
		c, ws, b, _ := testClient(t)
		path := filepath.Join(ws, "late.txt")
		b.decide = func(approvals.Request) approvals.Decision {
			c.cancelTurn() // the person steers while the card is open
			if allowed {
				return approvals.Decision{Outcome: approvals.OutcomeAllow, By: "person"}
			}
			return approvals.Decision{Outcome: approvals.OutcomeDeny, By: "person", Message: "not now"}
		}
		res, err := c.RequestPermission(context.Background(), editCall(path))
		if err != nil || res.Outcome.Cancelled == nil || res.Outcome.Selected != nil {
			t.Fatalf("allowed=%v: RequestPermission = %+v, %v; want cancelled", allowed, res.Outcome, err)
		}
		b.decide = nil
		if _, err := c.WriteTextFile(context.Background(), sdk.WriteTextFileRequest{Path: path, Content: "x"}); err != nil {
			t.Fatal(err)
		}
		if n := len(b.requests()); n != 2 {
			t.Errorf("allowed=%v: broker asked %d times; the cancelled request must grant no write", allowed, n)
		}
		// The next turn's requests are answered as usual.
		res, err = c.RequestPermission(context.Background(), editCall(path))
		if err != nil || res.Outcome.Selected == nil || res.Outcome.Selected.OptionId != "yes" {
			t.Errorf("allowed=%v: the request after the cancel = %+v, %v; want option yes", allowed, res.Outcome, err)
		}
	}
}
