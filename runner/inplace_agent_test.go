package runner

import (
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/sentinelhq/sentinel/runner/geminicli"
)

// gemini in place gets its hooks (runner/geminicli), Sentinel's approval
// mode before the person's arguments, however it was started.
func TestInPlaceGeminiHasHooks(t *testing.T) {
	t.Parallel()
	bin, err := exec.LookPath("gemini")
	if err != nil {
		t.Skip("gemini is not installed (npm install -g @google/gemini-cli@" + geminicli.MinVersion + ")")
	}
	argvs := [][]string{{"gemini", "-p", "hi"}}
	if js, err := filepath.EvalSymlinks(bin); err == nil && strings.HasSuffix(js, ".js") {
		if _, err := exec.LookPath("node"); err == nil {
			argvs = append(argvs, []string{"node", js, "-p", "hi"})
		}
	}
	for _, argv := range argvs {
		a, err := newInPlaceAdapter(argv)
		if err != nil {
			t.Fatal(err)
		}
		g, ok := a.(*geminicli.Adapter)
		if !ok {
			t.Fatalf("%q: adapter %T, want gemini's with its hooks", argv, a)
		}
		got, _ := g.Argv("")
		if n := len(got); n < 4 || !slices.Equal(got[n-4:], []string{"--approval-mode", "yolo", "-p", "hi"}) || filepath.Base(got[n-5]) != filepath.Base(argv[len(argv)-3]) {
			t.Errorf("%q: argv %q", argv, got)
		}
		if line := inPlaceFirstLine("r1", a, "/p"); !strings.Contains(line, "gemini in place in /p, with its approval hooks") {
			t.Errorf("first line: %s", line)
		}
	}
}
