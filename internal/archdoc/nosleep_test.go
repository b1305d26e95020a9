package archdoc

import (
	"bufio"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// sleepReason marks the one kind of fixed sleep a test may keep: one that
// is the subject of the test (a slow program, a pace being measured), said
// on the same line: `time.Sleep(d) // deliberate: why`.
const sleepReason = "// deliberate:"

// sleepsInFlight are test files with polling sleeps that other work in
// flight owns; each goes over to internal/poll when that work lands.
// Nothing is added here: a new wait uses internal/poll (or e2etest.Until).
var sleepsInFlight = map[string]bool{}

// No test waits by sleeping a fixed time: it waits on the condition it
// means, with a deadline that only bounds a hang (internal/poll). A fixed
// sleep is a guess at how long something takes, wrong on a loaded machine
// one way (a flaky failure) or the other (a slow suite). The end-to-end
// helpers (cmd/sentinel/internal/e2etest) are held to it too.
func TestNoTestSleeps(t *testing.T) {
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	helpers := filepath.Join("cmd", "sentinel", "internal", "e2etest") + string(filepath.Separator)
	n := 0
	err = filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, path)
		if d.IsDir() {
			if name := d.Name(); path != root && (strings.HasPrefix(name, ".") || name == "testdata" || name == "node_modules") {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, "_test.go") && !(strings.HasPrefix(rel, helpers) && strings.HasSuffix(path, ".go")) {
			return nil
		}
		if sleepsInFlight[filepath.ToSlash(rel)] {
			return nil
		}
		n++
		for _, i := range sleepLines(t, path) {
			t.Errorf("%s:%d sleeps a fixed time: wait on the condition with internal/poll (a deadline bounds a hang), or say why the sleep is the test's subject with %q on its line", rel, i, sleepReason)
		}
		return nil
	})
	if err != nil || n < 300 {
		t.Fatalf("walked %d test files: %v", n, err)
	}
}

// sleepCall is what a fixed sleep looks like (spelled so that this file
// is not one).
const sleepCall = "time." + "Sleep("

// sleepLines are the numbers of path's lines that call time.Sleep without
// sleepReason.
func sleepLines(t *testing.T, path string) []int {
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []int
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for i := 1; sc.Scan(); i++ {
		if line := sc.Text(); strings.Contains(line, sleepCall) && !strings.Contains(line, sleepReason) {
			out = append(out, i)
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}
