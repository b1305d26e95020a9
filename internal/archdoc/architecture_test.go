package archdoc

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// named are the repository paths ARCHITECTURE.md names in backquotes:
// runner, runner/agents, runner/claude/agent.go, cmd/sentinel-helper.
var named = regexp.MustCompile("`([a-z][a-z0-9_-]*(?:/[A-Za-z0-9_.-]+)*)`")

// rooms are the repository's top-level directories that hold Go code.
func rooms(t *testing.T, root string) map[string]bool {
	t.Helper()
	ents, err := os.ReadDir(root)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]bool{}
	for _, e := range ents {
		if !e.IsDir() || strings.HasPrefix(e.Name(), ".") {
			continue
		}
		found := false
		_ = filepath.WalkDir(filepath.Join(root, e.Name()), func(p string, d os.DirEntry, err error) error {
			if err == nil && !d.IsDir() && strings.HasSuffix(p, ".go") {
				found = true
				return filepath.SkipAll
			}
			return nil
		})
		if found {
			out[e.Name()] = true
		}
	}
	return out
}

// hasGo says dir holds a Go file: it is a package.
func hasGo(dir string) bool {
	m, _ := filepath.Glob(filepath.Join(dir, "*.go"))
	return len(m) > 0
}

func TestArchitectureNamesWhatExists(t *testing.T) {
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	doc, err := os.ReadFile(filepath.Join(root, "ARCHITECTURE.md"))
	if err != nil {
		t.Fatal(err)
	}
	top := rooms(t, root)
	mentioned := map[string]bool{}
	checked := 0
	for _, m := range named.FindAllStringSubmatch(string(doc), -1) {
		path := m[1]
		first, _, _ := strings.Cut(path, "/")
		if !top[first] {
			continue // not a path of the code (a command, a type)
		}
		mentioned[first] = true
		checked++
		full := filepath.Join(root, filepath.FromSlash(path))
		st, err := os.Stat(full)
		switch {
		case err != nil:
			t.Errorf("ARCHITECTURE.md names %s, which does not exist", path)
		case st.IsDir() && !hasGo(full) && strings.Contains(path, "/"):
			t.Errorf("ARCHITECTURE.md names %s as a package, but it holds no Go file", path)
		}
	}
	if checked < 20 {
		t.Fatalf("only %d paths read from ARCHITECTURE.md: the pattern no longer finds them", checked)
	}
	for r := range top {
		if !mentioned[r] {
			t.Errorf("the room %s/ is not on ARCHITECTURE.md", r)
		}
	}
}
