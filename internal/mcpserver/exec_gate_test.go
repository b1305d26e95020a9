//go:build unix

package mcpserver

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sentinelhq/sentinel/internal/norace"
	"github.com/sentinelhq/sentinel/policy"
)

// verdict is the gate engine's verdict on line (judge, from a parse of
// its own).
func (g *policyGate) verdict(line string, pctx policy.Context) policy.Verdict {
	v, _ := g.judge(policy.Read(line), pctx)
	return v
}

// gateModes are the exec modes, in the order the tests report them.
var gateModes = []string{ModeStrict, ModeAllowlist, ModePolicy, ModeUnrestricted}

// gateServer is a server for the gate tests: one rw path, a wide
// allowlist (so that allowlist and strict modes get past "not covered" and
// reach every check), a person's policy.toml that denies curl (so that the
// person's rules and the built-in ones answer differently), no templates
// and no one to ask (policy-mode asks are denies). Tests set its
// cfg.ExecMode.
func gateServer(t testing.TB) (*Server, string) {
	t.Helper()
	base, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	cfgHome := filepath.Join(base, "config")
	t.Setenv("XDG_CONFIG_HOME", cfgHome)
	if err := os.MkdirAll(filepath.Join(cfgHome, "sentinel"), 0o755); err != nil {
		t.Fatal(err)
	}
	rules := "[[rule]]\nid = \"no-curl-here\"\ndecision = \"deny\"\nreason = \"the person said no curl\"\nargv = [\"curl\"]\n"
	if err := os.WriteFile(filepath.Join(cfgHome, "sentinel", "policy.toml"), []byte(rules), 0o644); err != nil {
		t.Fatal(err)
	}
	rw := filepath.Join(base, "app")
	for name, body := range map[string]string{"notes.txt": "hello\n", "src/main.go": "package main\n"} {
		if err := os.MkdirAll(filepath.Dir(filepath.Join(rw, name)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(rw, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	cfg := `allowed_commands = ["ls", "git", "echo", "cat", "find", "true", "go", "npm", "npx", "make", "python3", "python",
  "cargo", "xargs", "grep", "sed", "rm", "curl", "docker", "pytest", "node", "sh", "bash", "env", "timeout", "tar", "cp", "mv"]

[[paths]]
path = "` + rw + `"
access = "rw"
`
	p := filepath.Join(base, "mcp.toml")
	if err := os.WriteFile(p, []byte(cfg), 0o644); err != nil {
		t.Fatal(err)
	}
	c, err := LoadConfig(p)
	if err != nil {
		t.Fatal(err)
	}
	srv, err := New(c, Options{Transport: "memory", Person: NoPerson{}, Warn: &strings.Builder{}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(srv.Close)
	return srv, rw
}

// corpusLines is every command of every policy corpus (the TSV corpora
// and the ::: lists), with ⏎ read as a newline, each once: about one line
// in eight is in more than one corpus (16,574 lines, 14,594 distinct on
// 2026-12-07), and a gate's answer depends on the line, not the file.
func corpusLines(t testing.TB) []string {
	t.Helper()
	var names []string
	for _, g := range []string{"corpus/*.tsv", "*.tsv", "*.txt"} {
		m, err := filepath.Glob(filepath.Join("..", "..", "policy", "testdata", g))
		if err != nil {
			t.Fatal(err)
		}
		names = append(names, m...)
	}
	if len(names) < 10 {
		t.Fatalf("found only %d corpus files under policy/testdata", len(names))
	}
	var out []string
	seen := map[string]bool{}
	for _, name := range names {
		fh, err := os.Open(name)
		if err != nil {
			t.Fatal(err)
		}
		sc := bufio.NewScanner(fh)
		sc.Buffer(make([]byte, 1<<20), 1<<20)
		for sc.Scan() {
			l := sc.Text()
			if strings.TrimSpace(l) == "" || strings.HasPrefix(l, "#") {
				continue
			}
			var cmd string
			if strings.HasSuffix(name, ".tsv") {
				p := strings.Split(l, "\t")
				if len(p) < 3 || p[0] == "expect" {
					continue
				}
				cmd = p[2]
			} else {
				p := strings.Split(l, " ::: ")
				if len(p) < 2 {
					continue
				}
				cmd = p[1]
			}
			if cmd = strings.ReplaceAll(cmd, "⏎", "\n"); !seen[cmd] {
				seen[cmd] = true
				out = append(out, cmd)
			}
		}
		fh.Close()
		if err := sc.Err(); err != nil {
			t.Fatal(err)
		}
	}
	return out
}

// gateAnswer is a gate's whole answer as text: the rule, or the refusal
// with every field.
func gateAnswer(rule string, err error) string {
	if err != nil {
		return fmt.Sprintf("refused %+v", err)
	}
	return "allowed " + rule
}

// sampleLines are the lines the parse counts and the benchmark use: one
// of each shape the gate reads differently.
var sampleLines = []string{
	"git status",
	"ls -la | grep notes",
	"go test ./... > out.txt",
	"find . -name '*.go' -exec grep -n main {} +",
	"sh -c 'echo hi && ls'",
}

// TestExecGateParses counts the parses of shell text one exec gate makes,
// per exec mode: each line is read once, whatever the mode asks of it.
func TestExecGateParses(t *testing.T) {
	srv, rw := gateServer(t)
	for _, mode := range gateModes {
		srv.cfg.ExecMode = mode
		for _, line := range sampleLines {
			top, all := countParses(line, func() { srv.gateExec(context.Background(), line, rw) })
			t.Logf("%-12s %-48q parses of the line %d, of any text %d", mode, line, top, all)
			if top != 1 {
				t.Errorf("%s mode parsed %q %d times", mode, line, top)
			}
		}
	}
}

// countParses runs fn and counts the parses of line and of any text.
func countParses(line string, fn func()) (top, all int) {
	stop := policy.WatchParses(func(text string) {
		all++
		if text == line {
			top++
		}
	})
	defer stop()
	fn()
	return top, all
}

// oldGate is exec's gate as it was before the line was read once: each
// step reads the line itself (ShellWrites, the unplaced writes' Check,
// strictLine's and unrestrictedLine's reading, the deny's Check, the
// allowlist's reading and built-in Check, policy mode's Check).
func (s *Server) oldGate(ctx context.Context, line, cwd string) (string, error) {
	check := func() policy.Verdict {
		return s.gate.engine.Check(policy.Query{Kind: policy.KindShell, Command: line, Context: s.policyContext(cwd)})
	}
	mode := s.cfg.ExecMode
	if mode == ModeUnrestricted {
		if err := unrestrictedLine(policy.Read(line)); err != nil {
			return "", err
		}
		return "exec_mode unrestricted (sandboxed)", refuseDenied(check())
	}
	if mode != ModePolicy { // policy mode: the engine asks for it
		if err := evalSinkLine(policy.Read(line)); err != nil {
			return "", err
		}
	}
	w := s.gate.engine.ShellWrites(line, s.policyContext(cwd))
	if err := s.execRunLater(line, cwd, check(), w, mode != ModePolicy); err != nil {
		return "", err
	}
	if mode == ModePolicy {
		return s.gate.decide(ctx, line, s.policyContext(cwd), check())
	}
	if mode == ModeStrict {
		if err := strictLine(policy.Read(line)); err != nil {
			return "", err
		}
	}
	return s.allowlistDecide(policy.Read(line), cwd, check())
}

// Every line of every policy corpus gets the same answer, allowed by the
// same rule or refused with the same class, rule, reason and way forward,
// from the gate that reads it once as from the gate whose every step read
// it again, in every exec mode.
func TestExecGateOneParseAnswersAsBefore(t *testing.T) {
	if gateSweepChild.Ran(t) {
		return
	}
	srv, rw := gateServer(t)
	lines := corpusLines(t)
	for _, mode := range gateModes {
		srv.cfg.ExecMode = mode
		differ := 0
		for _, line := range lines {
			got := gateAnswer(srv.gateExec(context.Background(), line, rw))
			want := gateAnswer(srv.oldGate(context.Background(), line, rw))
			if got != want {
				if differ++; differ <= 10 {
					t.Errorf("%s mode, %q:\nread once:  %s\nread again: %s", mode, line, got, want)
				}
			}
		}
		if differ > 0 {
			t.Errorf("%s mode: %d of %d lines answered differently", mode, differ, len(lines))
		}
	}
}

// gateSweepChild runs TestExecGateOneParseAnswersAsBefore, in a test
// binary built with -race (the suite's command), in a child go test built
// without it (internal/norace): every corpus line in four modes through
// two gates, one goroutine, pure computation whose concurrency the
// detector has nothing to find in, and under it about 30 CPU-s, the most
// of any test in the package (issue 33: the suite in minutes on 2 cores).
// Every line is still compared on every run. The same child runs
// TestExecAndScriptEditRefuseASyntaxTreeTooDeepToWalk, whose exec and edit
// lines of megabytes of nested shell are refused before anything runs:
// parsing and measuring them, single-threaded, was about 10 s of the
// package's wall time under -race.
var gateSweepChild = &norace.Child{
	What:  "the exec gate sweep",
	Env:   "SENTINEL_MCP_GATE_SWEEP_CHILD",
	Tests: []string{"TestExecGateOneParseAnswersAsBefore", "TestExecAndScriptEditRefuseASyntaxTreeTooDeepToWalk"},
}

// BenchmarkExecGate is one exec gate decision per mode, over sampleLines:
// the gate that reads the line once (once) and the one whose every step
// read it again (before).
func BenchmarkExecGate(b *testing.B) {
	srv, rw := gateServer(b)
	for _, mode := range gateModes {
		for _, way := range []struct {
			name string
			gate func(context.Context, string, string) (string, error)
		}{{"once", srv.gateExec}, {"before", srv.oldGate}} {
			b.Run(mode+"/"+way.name, func(b *testing.B) {
				srv.cfg.ExecMode = mode
				for i := 0; i < b.N; i++ {
					way.gate(context.Background(), sampleLines[i%len(sampleLines)], rw)
				}
			})
		}
	}
}
