package runlater

import (
	"os"
	"path/filepath"
	"testing"
)

// EnvWhy knows every installed environment's program directory by its
// path, and nothing else.
func TestEnvWhyKnowsEveryEnvironmentKind(t *testing.T) {
	root := t.TempDir()
	venv := filepath.Join(root, "py")
	if err := os.MkdirAll(venv, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(venv, "pyvenv.cfg"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, d := range []string{"node_modules/.bin", "vendor/bin", ".tox/py312/bin", ".tox/py312/Scripts", ".local/bin", "a/.local/bin", ".venv/bin", "venv/Scripts", "py/bin"} {
		if EnvWhy(filepath.Join(root, d)) == "" {
			t.Errorf("%s is not known as an environment's program directory", d)
		}
	}
	for _, d := range []string{"bin", "src/bin", ".bin", "vendor/lib", ".tox/bin", ".local/share", "node_modules/bin"} {
		if w := EnvWhy(filepath.Join(root, d)); w != "" {
			t.Errorf("%s is taken for an environment's program directory (%s)", d, w)
		}
	}
}
