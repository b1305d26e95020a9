//go:build unix

package mcpserver

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// ipatk17m row 13, bounded: 20 calls on one path sent without waiting
// (5 rounds of edit x, move x→y over y, copy y→x over x, delete y). Every
// delete that succeeds names its backup, every backup named is there,
// and no two answers name the same backup (none lost to another).
func TestConcurrentFileToolsKeepEveryBackup(t *testing.T) {
	f := newFixture(t)
	x, y := filepath.Join(f.rw, "x.txt"), filepath.Join(f.rw, "y.txt")
	write(t, x, "X\n")
	write(t, y, "Y\n")
	cs, _ := session(t, mustConfig(t, f.config("")), Options{})
	type answer struct {
		tool, text string
		isErr      bool
	}
	var mu sync.Mutex
	var answers []answer
	var wg sync.WaitGroup
	for range 5 {
		for _, c := range []struct {
			tool string
			args map[string]any
		}{
			{"edit", map[string]any{"path": x, "content": "E\n"}},
			{"move", map[string]any{"from": x, "to": y, "overwrite": true}},
			{"copy", map[string]any{"from": y, "to": x, "overwrite": true}},
			{"delete", map[string]any{"path": y}},
		} {
			wg.Go(func() {
				res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: c.tool, Arguments: c.args})
				a := answer{tool: c.tool}
				if err != nil {
					a.text, a.isErr = err.Error(), true
				} else if b := blocks(res); len(b) > 0 {
					a.text, a.isErr = b[0], res.IsError
				}
				mu.Lock()
				answers = append(answers, a)
				mu.Unlock()
			})
		}
	}
	wg.Wait()
	seen := map[string]string{}
	const mark = "backup of what was there: "
	for _, a := range answers {
		i := strings.Index(a.text, mark)
		if i < 0 {
			if a.tool == "delete" && !a.isErr {
				t.Errorf("a delete that succeeded names no backup: %s", a.text)
			}
			continue
		}
		b := strings.TrimSpace(a.text[i+len(mark):])
		if _, err := os.Lstat(b); err != nil {
			t.Errorf("%s: the backup it names is not there (%v): %s", a.tool, err, a.text)
		}
		if prev, ok := seen[b]; ok {
			t.Errorf("two answers name one backup %s:\n%s\n%s", b, prev, a.text)
		}
		seen[b] = a.text
	}
	t.Logf("%d answers, %d backups", len(answers), len(seen))
}
