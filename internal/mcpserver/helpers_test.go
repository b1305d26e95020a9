//go:build unix

package mcpserver

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/sentinelhq/sentinel/internal/journal"
)

// fixture is a temp tree: an rw dir, an r dir, an outside dir holding a
// secret, and the config text pointing at them.
type fixture struct {
	rw, ro, outside, secret string
}

func newFixture(t *testing.T) fixture {
	t.Helper()
	base, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	f := fixture{rw: filepath.Join(base, "app"), ro: filepath.Join(base, "logs"), outside: filepath.Join(base, "outside")}
	for _, d := range []string{f.rw, f.ro, f.outside} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	f.secret = filepath.Join(f.outside, "secret.txt")
	write(t, f.secret, "TOPSECRET\n")
	write(t, filepath.Join(f.rw, "config.json"), `{"a": 1}`+"\n")
	write(t, filepath.Join(f.rw, "notes.txt"), "hello world\nsecond line\n")
	write(t, filepath.Join(f.ro, "app.log"), "boot ok\nERROR disk full\n")
	return f
}

func (f fixture) config(extra string) string {
	return `allowed_commands = ["ls", "git", "echo", "cat", "systemctl status", "find", "true"]
` + extra + `
[[paths]]
path = "` + f.rw + `"
access = "rw"

[[paths]]
path = "` + f.ro + `"
access = "r"
`
}

func write(t *testing.T, p, body string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
}

// testExecTimeout is the exec_timeout of a test's config that names none:
// a bound on a hang, not on speed. The default minute killed a sandboxed
// python3 on a machine at load 50 (TestExecHoldsWhatARepositoryMadeMidSessionSendsGitTo
// read "[killed after 1m0s (exec_timeout)]" for a write it expected refused).
// A test about the timeout sets its own.
const testExecTimeout = 10 * time.Minute

// mustConfig is the config src says, with exec_timeout testExecTimeout
// when src names none.
func mustConfig(t *testing.T, src string) *Config {
	t.Helper()
	c := loadConfigText(t, src)
	if c.Limits.ExecTimeout == "" {
		c.Limits.execTimeout = testExecTimeout
	}
	return c
}

// loadConfigText is the config src says, as LoadConfig reads it.
func loadConfigText(t *testing.T, src string) *Config {
	t.Helper()
	p := filepath.Join(t.TempDir(), "mcp.toml")
	write(t, p, src)
	c, err := LoadConfig(p)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// session starts a server for cfg and connects the SDK's client to it in
// memory.
func session(t *testing.T, cfg *Config, opts Options) (*mcp.ClientSession, *Server) {
	t.Helper()
	if opts.Transport == "" {
		opts.Transport = "memory"
	}
	if opts.files == nil {
		opts.files = testLayer(t)
	}
	srv, err := New(cfg, opts)
	if err != nil {
		t.Fatal(err)
	}
	ct, st := mcp.NewInMemoryTransports()
	ctx := context.Background()
	ss, err := srv.MCP().Connect(ctx, st, nil)
	if err != nil {
		t.Fatal(err)
	}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test"}, nil).Connect(ctx, ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		cs.Close()
		ss.Wait()
		srv.Close()
	})
	return cs, srv
}

// call calls a tool and returns its text and whether it was an error.
// call is the call's answer: its first block. A second one, when the
// call changed paths in an rw path, names them (callwrote.go): callBlocks.
func call(t *testing.T, cs *mcp.ClientSession, tool string, args map[string]any) (string, bool) {
	t.Helper()
	answer, _, isErr := callBlocks(t, cs, tool, args)
	return answer, isErr
}

// callBlocks is the call's answer and the block naming what it changed
// ("" for none).
func callBlocks(t *testing.T, cs *mcp.ClientSession, tool string, args map[string]any) (answer, changed string, isErr bool) {
	t.Helper()
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: tool, Arguments: args})
	if err != nil {
		t.Fatalf("%s %v: protocol error %v", tool, args, err)
	}
	var texts []string
	for _, c := range res.Content {
		tc, ok := c.(*mcp.TextContent)
		if !ok {
			t.Fatalf("%s %v: a block that is not text: %T", tool, args, c)
		}
		texts = append(texts, tc.Text)
	}
	switch len(texts) {
	case 1:
		return texts[0], "", res.IsError
	case 2:
		if !strings.HasPrefix(texts[1], "[sentinel: ") {
			t.Fatalf("%s %v: the second block is not what the call changed: %q", tool, args, texts[1])
		}
		return texts[0], texts[1], res.IsError
	}
	t.Fatalf("%s %v: %d blocks, want the answer and at most what the call changed: %q", tool, args, len(texts), texts)
	return "", "", false
}

func mustAllow(t *testing.T, cs *mcp.ClientSession, tool string, args map[string]any) string {
	t.Helper()
	text, isErr := call(t, cs, tool, args)
	if isErr {
		t.Fatalf("%s %v refused: %s", tool, args, text)
	}
	return text
}

func mustRefuse(t *testing.T, cs *mcp.ClientSession, tool string, args map[string]any, class Class) string {
	t.Helper()
	text, isErr := call(t, cs, tool, args)
	if !isErr || !strings.Contains(text, "["+string(class)+"]") {
		t.Fatalf("%s %v: want a %s refusal, got (error=%v) %s", tool, args, class, isErr, text)
	}
	return text
}

func auditCalls(t *testing.T, srv *Server) []Call {
	t.Helper()
	evs, err := journal.ReadFile(srv.AuditPath())
	if err != nil {
		t.Fatal(err)
	}
	var out []Call
	for _, ev := range evs {
		if c, ok := AsCall(ev); ok {
			out = append(out, c)
		}
	}
	return out
}

// layerOf is the file layer eachLayer gave each of its subtests, by the
// subtest's name; testLayer finds it for that subtest and any under it.
var layerOf sync.Map

// testLayer is the file layer session gives a server in t (nil: the
// platform's).
func testLayer(t *testing.T) fileLayer {
	for name := t.Name(); ; {
		if l, ok := layerOf.Load(name); ok {
			return l.(fileLayer)
		}
		i := strings.LastIndexByte(name, '/')
		if i < 0 {
			return nil
		}
		name = name[:i]
	}
}

// eachLayer runs a file-tool test on every file layer this platform has:
// here the unix openat layer and the portable os.Root one that Windows
// uses, so the Windows file tools are exercised on Linux too.
func eachLayer(t *testing.T, test func(*testing.T)) {
	for _, l := range testLayers() {
		t.Run(l.Name(), func(t *testing.T) {
			layerOf.Store(t.Name(), l)
			defer layerOf.Delete(t.Name())
			test(t)
		})
	}
}

// rwExec is a config whose one rw path is dir, where exec may run any
// command the policy allows.
func rwExec(t *testing.T, dir string) *Config {
	t.Helper()
	return mustConfig(t, `exec_mode = "unrestricted"
[[paths]]
path = "`+dir+`"
access = "rw"
`)
}

// committedMakefile makes dir a repository on main whose one commit
// holds an innocent Makefile.
func committedMakefile(t *testing.T, dir string) {
	t.Helper()
	write(t, filepath.Join(dir, "Makefile"), "all:\n\techo hi\n")
	gitIn(t, dir, "init", "-q", "-b", "main")
	gitIn(t, dir, "add", "Makefile")
	gitIn(t, dir, "commit", "-qm", "one")
}
