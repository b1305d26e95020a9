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
		// the class, not the instance (review): a symlinked package folder,
		// a package whose start file is not a .py, the start-up hooks
		{Path: "pip", What: checkpoint.Added, After: &checkpoint.Entry{Kind: checkpoint.KindSymlink, Mode: 0o777, Target: "vendor/pip"}},
		added("vendor/pip/__init__.py"), added("venv/__init__.pyc"), added("json/__init__.cpython-313-x86_64-linux-gnu.so"),
		added("src/sitecustomize.py"), added("usercustomize.py"),
		{Path: "mylink", What: checkpoint.Added, After: &checkpoint.Entry{Kind: checkpoint.KindSymlink, Mode: 0o777, Target: "x"}},
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
		"pip":                                 "`pip`, at the top",
		"venv/__init__.pyc":                   "`venv`, at the top",
		"json/__init__.cpython-313-x86_64-linux-gnu.so": "`json`, at the top",
		"src/sitecustomize.py":                          "`sitecustomize`, in a folder on your PYTHONPATH",
		"usercustomize.py":                              "`usercustomize`, at the top",
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
	if n := len(r.PythonShadows(changes, "")); n != 11 {
		t.Errorf("without a PYTHONPATH %d flags; want the 11 at the top", n)
	}
}
