package inside

import (
	"os"
	"path/filepath"
	"testing"
)

func TestMain(m *testing.M) {
	// The landlock test runs its probe in a second start of this binary.
	if len(os.Args) == 3 && os.Args[1] == landlockArg {
		os.Exit(landlockProbe(os.Args[2]))
	}
	os.Exit(m.Run())
}

func mustWrite(t *testing.T, path, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o600); err != nil {
		t.Fatal(err)
	}
}
