package policy

import (
	"bufio"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// testEnv builds a workspace and a fake home with the files the corpora
// mention, and returns the context to judge commands in.
func testEnv(t testing.TB) Context {
	t.Helper()
	root := t.TempDir()
	ws := filepath.Join(root, "ws")
	home := filepath.Join(root, "home")
	for _, d := range []string{".git/hooks", "src", "build", "node_modules/.bin", ".vscode", "tests"} {
		if err := os.MkdirAll(filepath.Join(ws, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for _, f := range []string{"README.md", "main.go", "go.mod", "src/a.go", "x.json", "a", "b", "x", "file", ".env", "node_modules/.bin/jest"} {
		if err := os.WriteFile(filepath.Join(ws, f), []byte("x\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, d := range []string{".ssh", ".aws", ".config/gh"} {
		if err := os.MkdirAll(filepath.Join(home, d), 0o700); err != nil {
			t.Fatal(err)
		}
	}
	for _, f := range []string{".ssh/id_rsa", ".aws/credentials", ".bashrc", ".netrc"} {
		if err := os.WriteFile(filepath.Join(home, f), []byte("secret\n"), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	return Context{Workspace: ws, Cwd: ws, Home: home}
}

type corpusLine struct {
	line   int
	expect string
	cmd    string
	why    string
	cat    string // the "# --- name" section the line is in
}

func readCorpus(t testing.TB, name string) []corpusLine {
	t.Helper()
	f, err := os.Open(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []corpusLine
	sc := bufio.NewScanner(f)
	n := 0
	cat := "other"
	for sc.Scan() {
		n++
		l := sc.Text()
		if c, ok := strings.CutPrefix(l, "# --- "); ok {
			cat = strings.TrimSpace(c)
		}
		if strings.TrimSpace(l) == "" || strings.HasPrefix(l, "#") {
			continue
		}
		parts := strings.Split(l, " ::: ")
		if len(parts) != 3 {
			t.Fatalf("%s:%d: want EXPECT ::: COMMAND ::: WHY", name, n)
		}
		out = append(out, corpusLine{n, parts[0], strings.ReplaceAll(parts[1], "⏎", "\n"), parts[2], cat})
	}
	return out
}

func (c corpusLine) ok(d Decision) bool {
	switch c.expect {
	case "!allow", "!allow-off", "!allow-inplace":
		return d != Allow
	default:
		return d.String() == c.expect
	}
}

func TestAdversarialCorpusNeverAllowed(t *testing.T) {
	ctx := testEnv(t)
	e := Default()
	lines := readCorpus(t, "adversarial.txt")
	if len(lines) < 150 {
		t.Fatalf("adversarial corpus has %d lines, want at least 150", len(lines))
	}
	for _, c := range lines {
		v := e.Check(Query{Kind: KindShell, Command: c.cmd, Context: ctx})
		if v.Decision == Allow {
			t.Errorf("line %d ALLOWED %q (%s): rule %s: %s", c.line, c.cmd, c.why, v.Rule, v.Reason)
			continue
		}
		if !c.ok(v.Decision) {
			t.Errorf("line %d %q (%s): got %s by %s (%s), want %s", c.line, c.cmd, c.why, v.Decision, v.Rule, v.Reason, c.expect)
		}
	}
}

func TestEverydayCorpusMostlyAllowed(t *testing.T) {
	ctx := testEnv(t)
	e := Default()
	lines := readCorpus(t, "everyday.txt")
	if len(lines) < 50 {
		t.Fatalf("everyday corpus has %d lines, want at least 50", len(lines))
	}
	allowed := 0
	for _, c := range lines {
		v := e.Check(Query{Kind: KindShell, Command: c.cmd, Context: ctx})
		if v.Decision == Allow {
			allowed++
		}
		if !c.ok(v.Decision) {
			t.Errorf("line %d %q (%s): got %s by %s (%s), want %s", c.line, c.cmd, c.why, v.Decision, v.Rule, v.Reason, c.expect)
		}
	}
	if allowed*10 < len(lines)*9 {
		t.Errorf("everyday: %d of %d allowed, want at least 90%%", allowed, len(lines))
	}
}

// The engine is shared by every adapter; judging from many goroutines at
// once must give the same answers (run with -race).
func TestConcurrentChecksAgree(t *testing.T) {
	ctx := testEnv(t)
	e := Default()
	lines := readCorpus(t, "adversarial.txt")
	want := make([]Decision, len(lines))
	for i, c := range lines {
		want[i] = e.Check(Query{Kind: KindShell, Command: c.cmd, Context: ctx}).Decision
	}
	done := make(chan string, 4)
	for g := 0; g < 4; g++ {
		go func() {
			for i, c := range lines {
				if got := e.Check(Query{Kind: KindShell, Command: c.cmd, Context: ctx}).Decision; got != want[i] {
					done <- c.cmd
					return
				}
			}
			done <- ""
		}()
	}
	for g := 0; g < 4; g++ {
		if bad := <-done; bad != "" {
			t.Errorf("concurrent check of %q disagreed", bad)
		}
	}
}
