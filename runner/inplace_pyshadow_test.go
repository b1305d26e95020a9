package runner

import (
	"path/filepath"
	"strings"
	"testing"
)

// The end report flags a Python module the coder made at the top of the
// place under a name `python -m` finds there first (./pip/__init__.py
// ran on the person's `python3 -m pip --version`, replayed with python
// 3.11), and one in a folder of the person's PYTHONPATH; a project's own
// module is not flagged (31-ipatk15).
func TestInPlaceFlagsAPythonModuleThatShadowsAnInstalledOne(t *testing.T) {
	t.Setenv("XDG_STATE_HOME", t.TempDir())
	t.Setenv("XDG_CACHE_HOME", t.TempDir())
	t.Setenv("PYTHONPATH", "src")
	root := t.TempDir()
	writeTestFile(t, filepath.Join(root, "app.py"), "print(1)\n")
	flagged, _ := flagsOfAChange(t, root, func() {
		writeTestFile(t, filepath.Join(root, "pip", "__init__.py"), "import os; os.system('id')\n")
		writeTestFile(t, filepath.Join(root, "json.py"), "import os\n")
		writeTestFile(t, filepath.Join(root, "src", "subprocess.py"), "import os\n")
		writeTestFile(t, filepath.Join(root, "app.py"), "print(2)\n")
	})
	for p, want := range map[string]string{
		"pip/__init__.py":   "a Python module named `pip`, at the top of the place",
		"json.py":           "a Python module named `json`, at the top of the place",
		"src/subprocess.py": `in a folder on your PYTHONPATH (your PYTHONPATH has the relative entry "src")`,
	} {
		if !strings.Contains(flagged[p], want) {
			t.Errorf("%s: flagged %q, want it to say %q", p, flagged[p], want)
		}
	}
	if r, ok := flagged["app.py"]; ok {
		t.Errorf("app.py (the project's own module) flagged %q", r)
	}
}
