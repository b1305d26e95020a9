//go:build linux

package mcpserver

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/sentinelhq/sentinel/internal/testuser"
	sentinelrunner "github.com/sentinelhq/sentinel/runner"
	"github.com/sentinelhq/sentinel/runner/checkpoint"
)

// A call through `sentinel mcp` running as the person's (unprivileged)
// user trojans an ignored file, adds one beside it and takes the
// directory's read bit away (chmod 311). The server's record of the call
// must see inside, so that `sentinel undo` puts the place back byte for
// byte without --force: it refused ("build/out.o: created since the run
// ended"), and --force left the coder's new file behind (h/ipatk6).
func TestUndoAfterAnMCPCallMadeADirectoryUnlistable(t *testing.T) {
	t.Parallel()

	if testuser.Rerun(t, testuser.CI) {
		return
	}
	app, _ := filepath.EvalSymlinks(t.TempDir())
	write(t, filepath.Join(app, ".gitignore"), "build/\n")
	write(t, filepath.Join(app, "Makefile"), "all:\n\techo ok\n")
	write(t, filepath.Join(app, "build/out.o"), "obj\n")
	want := placeState(t, app)
	cp := newCallPoints("mcp-20261206-000000-1", "test", checkpoint.Limits{}, []string{app}, func(string) {})
	n := cp.before("exec: the coder")
	if n == 0 {
		t.Fatal("no point taken")
	}
	write(t, filepath.Join(app, "build/out.o"), "trojan\n")
	write(t, filepath.Join(app, "build/new.o"), "new\n")
	if err := os.Chmod(filepath.Join(app, "build"), 0o311); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.Chmod(filepath.Join(app, "build"), 0o755) })
	cp.after(n, false)

	p, err := sentinelrunner.FindInPlaceProject(context.Background(), app)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := sentinelrunner.Undo(context.Background(), p, "", sentinelrunner.UndoOptions{}); err != nil {
		t.Fatalf("undo: %v", err)
	}
	if got := placeState(t, app); got != want {
		t.Fatalf("not put back:\nwant\n%s\ngot\n%s", want, got)
	}
}
