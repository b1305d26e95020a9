package runner

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A run's broker socket is not in the project, where every in-place run's
// sandbox shows .sentinel/runs, but in a private directory of its own,
// removed when the broker closes.
func TestBrokerSocketIsOutsideTheProject(t *testing.T) {
	t.Parallel()
	project := t.TempDir()
	r := &containment{runCore: &runCore{id: "r-sock", dir: filepath.Join(project, ".sentinel", "runs", "r-sock")}}
	sock := r.socketPath()
	if strings.HasPrefix(sock, project+string(filepath.Separator)) {
		t.Fatalf("the socket %s is inside the project", sock)
	}
	if r.socketPath() != sock {
		t.Fatal("socketPath changed between calls")
	}
	st, err := os.Stat(filepath.Dir(sock))
	if err != nil || st.Mode().Perm() != 0o700 {
		t.Fatalf("the socket's directory: %v %v", st, err)
	}
	r.closeBroker()
	if _, err := os.Stat(filepath.Dir(sock)); !os.IsNotExist(err) {
		t.Fatalf("the socket's directory was left behind: %v", err)
	}
}
