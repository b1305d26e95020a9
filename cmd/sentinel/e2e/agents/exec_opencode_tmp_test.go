package agents

import (
	"path/filepath"
	"testing"

	"github.com/sentinelhq/sentinel/cmd/sentinel/internal/e2etest"
	"github.com/sentinelhq/sentinel/internal/fakemodel"
)

// opencode started outside a sandbox by a test (direct) leaves nothing in
// the temp dir it was started from: the native library Bun writes at each
// start (.<hex>-00000000.so, 5.5 MB) goes to a temp dir of its own that
// the test removes. The test's own temp dir is a private one, not the
// shared /tmp where other runs' libraries come and go.
func TestDirectOpencodeLeavesNoLibraryInTheTempDir(t *testing.T) {
	e2etest.NeedOpencode(t)
	w := newOpencodeExecWorld(t, e2etest.ScratchRepo(t), fakemodel.Script{fakemodel.Reply(fakemodel.Text("The answer."))})
	shared := t.TempDir() // what stands for /tmp: the temp dir the start inherits
	t.Setenv("TMPDIR", shared)
	direct(t, w, "a question")
	libs, err := filepath.Glob(filepath.Join(shared, ".*.so"))
	if err != nil {
		t.Fatal(err)
	}
	if len(libs) != 0 {
		t.Fatalf("opencode left %d native libraries in the temp dir it was started from: %v", len(libs), libs)
	}
}
