package approvals

import (
	"bufio"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/sentinelhq/sentinel/policy"
)

// reparsedAsWritten is sameAsWritten without the engine's answer: the
// part's text read again.
func reparsedAsWritten(p policy.Part) bool {
	p.Written = policy.WrittenUnknown
	return sameAsWritten(p)
}

// TestEngineWrittenAgreesWithReading: the engine's Written answer, which
// templates use instead of reading a part's text again, is the answer
// reading the text again gives, for every part of every corpus line.
func TestEngineWrittenAgreesWithReading(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join("..", "policy", "testdata", "*.txt"))
	if len(files) == 0 {
		t.Fatal("no corpus files found")
	}
	ws := t.TempDir()
	ctx := policy.Context{Workspace: ws, Cwd: ws, Home: t.TempDir(), Sandboxed: true}
	e := policy.Default()
	n := 0
	for _, f := range files {
		fh, err := os.Open(f)
		if err != nil {
			t.Fatal(err)
		}
		sc := bufio.NewScanner(fh)
		for sc.Scan() {
			parts := strings.Split(sc.Text(), " ::: ")
			if len(parts) != 3 || strings.HasPrefix(parts[0], "#") {
				continue
			}
			line := strings.ReplaceAll(parts[1], "⏎", "\n")
			for _, p := range e.Check(policy.Query{Kind: policy.KindShell, Command: line, Context: ctx}).Parts {
				if p.Argv == nil || p.Dynamic {
					continue
				}
				if p.Written == policy.WrittenUnknown {
					continue
				}
				n++
				engine := p.Written == policy.WrittenAsArgv
				if again := reparsedAsWritten(p); engine != again {
					t.Errorf("%s: %q part %q (argv %q, via %q): engine says as written %v, reading again %v", filepath.Base(f), line, p.Text, p.Argv, p.Via, engine, again)
				}
			}
		}
		fh.Close()
	}
	if n < 500 {
		t.Errorf("only %d parts compared", n)
	}
	// A template covers a part only through the answer: a part the engine
	// says is not as written is not covered even when its argv matches.
	tm := &Template{Match: Match{Prefix: []string{"ls"}}}
	p := policy.Part{Text: "FOO=1 ls", Argv: []string{"ls"}, Written: policy.WrittenOther}
	if tm.CoversPart(p) {
		t.Error("a part the engine read as not written was covered")
	}
	// And a part the engine read as written is not read again: its text
	// here would not even parse.
	p = policy.Part{Text: "ls ((", Argv: []string{"ls", "-la"}, Written: policy.WrittenAsArgv}
	if !tm.CoversPart(p) {
		t.Error("a part the engine read as written was read again")
	}
	if !slices.Equal(p.Argv, []string{"ls", "-la"}) {
		t.Error("argv changed")
	}
}
