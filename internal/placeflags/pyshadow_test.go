package placeflags

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/sentinelhq/sentinel/runner/checkpoint"
)

// A module named like a standard one or a tool run with `python -m`, made
// or changed at the top of the place or in a folder on the person's
// PYTHONPATH, is flagged: `python3 -m pip --version` at the top ran a
// coder's ./pip/__init__.py (31-ipatk15). The same names deeper, a
// project's own module names, a mode change and a deletion are not.
func TestPythonModulesThatShadowTheInstalledOnesAreFlagged(t *testing.T) {
	root := t.TempDir()
	r := Read(root, &checkpoint.Manifest{}, "", "")
	file := func(h string) *checkpoint.Entry {
		return &checkpoint.Entry{Kind: checkpoint.KindFile, Mode: 0o644, Hash: h}
	}
	added := func(p string) checkpoint.Change {
		return checkpoint.Change{Path: p, What: checkpoint.Added, After: file("new")}
	}
	changes := []checkpoint.Change{
		added("pip/__init__.py"), added("json.py"), added("typing.pyc"), added("venv/__main__.py"),
		added("ssl.cpython-311-x86_64-linux-gnu.so"), added("pytest.py"),
		{Path: "http/server.py", What: checkpoint.Modified, Before: file("a"), After: file("b")},
		added("src/json.py"), added("lib/subprocess.py"), added("tools/pip/__init__.py"),
		added("myapp.py"), added("app/__init__.py"), added("json/decoder/x.py"), added("a.b.py"),
		{Path: "re.py", What: checkpoint.Modified, Before: file("same"), After: &checkpoint.Entry{Kind: checkpoint.KindFile, Mode: 0o755, Hash: "same"}},
		{Path: "os.py", What: checkpoint.Deleted, Before: file("x")},
	}
	pythonPath := filepath.Join(root, "src") + ":lib:" + filepath.Join(t.TempDir(), "elsewhere")
	got := map[string]string{}
	for _, f := range r.PythonShadows(changes, pythonPath) {
		got[f.Path] = f.Reason
	}
	want := map[string]string{
		"pip/__init__.py":                     "`pip`, at the top of the place",
		"json.py":                             "`json`, at the top of the place",
		"typing.pyc":                          "`typing`, at the top",
		"venv/__main__.py":                    "`venv`, at the top",
		"ssl.cpython-311-x86_64-linux-gnu.so": "`ssl`, at the top",
		"pytest.py":                           "`pytest`, at the top",
		"http/server.py":                      "`http`, at the top",
		"src/json.py":                         "on your PYTHONPATH (your PYTHONPATH has " + filepath.Join(root, "src"),
		"lib/subprocess.py":                   `PYTHONPATH has the relative entry "lib"`,
	}
	for p, w := range want {
		if !strings.Contains(got[p], w) {
			t.Errorf("%s: flagged %q; want it to say %q", p, got[p], w)
		}
	}
	for p, why := range got {
		if _, ok := want[p]; !ok {
			t.Errorf("%s: flagged %q; it shadows nothing", p, why)
		}
	}
	if n := len(r.PythonShadows(changes, "")); n != 7 {
		t.Errorf("without a PYTHONPATH %d flags; want the 7 at the top", n)
	}
}
