//go:build unix

package agents

import (
	"crypto/sha256"
	"encoding/hex"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sentinelhq/sentinel/cmd/sentinel/internal/e2etest"
	"github.com/sentinelhq/sentinel/internal/fakemodel"
)

// In place, the commands opencode starts cannot write its project's
// session store (OPENCODE_DB's directory, which a later run's `opencode
// --continue` reads: the wrapper's domain grants no write there): a
// project script that tries to append to the database, add a file beside
// it, move one in or move the database away is refused each time, and the
// run's own session is in the store. Seen failing without the store named
// as opencode's state (AgentStateDirs): every plant was written.
func TestExecOpencodeCommandsCannotWriteItsSessions(t *testing.T) {
	t.Parallel()
	dir := e2etest.ScratchRepo(t)
	bash := func(cmd string) fakemodel.Block {
		return fakemodel.ToolUse("bash", map[string]any{"command": cmd, "description": "scripted by the test"})
	}
	w := newOpencodeExecWorld(t, dir, fakemodel.Script{
		fakemodel.Reply(fakemodel.Text("Planting."), bash("sh plant.sh")),
		{When: fakemodel.AfterToolResult, Blocks: []fakemodel.Block{fakemodel.Text("First session done.")}},
	})
	// The store must lie outside /tmp (the sandbox's own /tmp is a
	// writable root and would hold it): the data dir elsewhere.
	data, err := os.MkdirTemp("/var/tmp", "sentinel-e2e-data-")
	if err != nil {
		t.Skipf("no data dir outside /tmp: %v", err)
	}
	t.Cleanup(func() { os.RemoveAll(data) })
	w.env = append(w.env, "XDG_DATA_HOME="+data)
	sum := sha256.Sum256([]byte(filepath.Clean(dir)))
	store := filepath.Join(data, "sentinel", "opencode", hex.EncodeToString(sum[:8]))
	e2etest.WriteFile(t, filepath.Join(dir, "plant.sh"), `S='`+store+`'; export S; [ -f "$S/opencode.db" ] || { echo "no store" >> plant.log; exit 1; }
try() { if sh -c "$2" 2>>plant.err; then echo "$1=written" >> plant.log; else echo "$1=refused" >> plant.log; fi; }
try append 'printf PLANTED >> "$S/opencode.db"'
try new 'echo PLANTED > "$S/planted-new.db"'
try mv 'echo PLANTED > own.db && mv own.db "$S/planted-mv.db"'
try swap 'mv "$S/opencode.db" "$S/planted-moved.db"'
`)
	res := w.exec(t, "Plant it (the heron question).")
	if res.Code != 0 {
		t.Fatalf("exit %d\nstderr: %s\nstdout:\n%s", res.Code, res.Stderr, res.Stdout)
	}
	log, _ := os.ReadFile(filepath.Join(dir, "plant.log"))
	errs, _ := os.ReadFile(filepath.Join(dir, "plant.err"))
	for _, how := range []string{"append", "new", "mv", "swap"} {
		if !strings.Contains(string(log), how+"=refused") {
			t.Errorf("the %s plant was not refused:\n%s\n%s\n%s", how, log, errs, res.Stdout)
		}
	}
	if !strings.Contains(string(errs), "Permission denied") {
		t.Errorf("no refusal read EACCES:\n%s\n%s", log, errs)
	}
	if planted, _ := filepath.Glob(filepath.Join(store, "planted-*")); len(planted) > 0 {
		t.Errorf("planted in the session store: %v", planted)
	}
	db, err := os.ReadFile(filepath.Join(store, "opencode.db"))
	if err != nil || strings.HasSuffix(string(db), "PLANTED") {
		t.Errorf("the session store's database: %v, planted at its end %v", err, strings.HasSuffix(string(db), "PLANTED"))
	}
	wal, _ := os.ReadFile(filepath.Join(store, "opencode.db-wal"))
	if !strings.Contains(string(db)+string(wal), "the heron question") {
		t.Errorf("the run's session is not in the store (%d bytes)", len(db))
	}
	w.noPluginRan(t)
}
