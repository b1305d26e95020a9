package acp

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// agentNames are agents Sentinel has a folder for (runner/agents lists
// them); spelled here because this package must not import that registry.
var agentNames = []string{"claude", "codex", "gemini", "opencode", "aider", "goose", "crush", "qwen"}

// This package is the ACP client only: what one agent needs beyond the
// protocol is its entry's (coder.ACPGuest), in that agent's folder. So no
// name it declares, and no path it spells out (".gemini/…"), is an agent's.
// (Examples in messages and comments, "e.g. gemini --acp", may name them.)
func TestACPKnowsNoAgentByName(t *testing.T) {
	t.Parallel()
	files, err := filepath.Glob("*.go")
	if err != nil || len(files) == 0 {
		t.Fatalf("no source files: %v", err)
	}
	fset := token.NewFileSet()
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		src, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		f, err := parser.ParseFile(fset, name, src, 0)
		if err != nil {
			t.Fatal(err)
		}
		ast.Inspect(f, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.Ident:
				if n.Obj != nil && n.Obj.Pos() == n.Pos() { // a declaration
					if a := agentIn(n.Name); a != "" {
						t.Errorf("%s declares %s, %s's: it belongs in %s's folder (its coder.ACPGuest)", fset.Position(n.Pos()), n.Name, a, a)
					}
				}
			case *ast.FuncDecl:
				if a := agentIn(n.Name.Name); a != "" {
					t.Errorf("%s declares %s, %s's: it belongs in %s's folder (its coder.ACPGuest)", fset.Position(n.Pos()), n.Name.Name, a, a)
				}
			case *ast.BasicLit:
				if n.Kind == token.STRING {
					s, _ := strconv.Unquote(n.Value)
					for _, a := range agentNames {
						if strings.Contains(strings.ToLower(s), "."+a+"/") || strings.ToLower(s) == "."+a {
							t.Errorf("%s spells %s's own path %q: it belongs in %s's folder", fset.Position(n.Pos()), a, s, a)
						}
					}
				}
			}
			return true
		})
	}
}

func agentIn(name string) string {
	lower := strings.ToLower(name)
	for _, a := range agentNames {
		if strings.Contains(lower, a) {
			return a
		}
	}
	return ""
}
