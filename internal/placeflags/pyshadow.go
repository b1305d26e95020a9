package placeflags

import (
	"path"
	"strings"

	"github.com/sentinelhq/sentinel/internal/runlater"
	"github.com/sentinelhq/sentinel/runner/checkpoint"
)

// Python imports a module from the first folder of its import path that
// holds it, and `python -m NAME` puts the folder the person is in first:
// `python -m pip install …`, `python -m venv .venv` or `python -m pytest`
// typed at the top of the place imports ./pip/__init__.py, ./venv.py, and
// every standard module the tool imports (./json.py, ./typing.py …) from
// there before the installed ones, and runs them on the person's machine
// (replayed with python 3.11: ./pip/__init__.py ran on `python3 -m pip
// --version`). PYTHONPATH folders come first for every python the person
// runs. So a module or package named like a standard module or a tool
// run with -m, made or changed at the top of the place or in a folder the
// person's PYTHONPATH names, runs code later (31-ipatk15).

// PythonShadows flags each change of changes that makes or changes such a
// module: NAME.py, NAME.pyc or NAME*.so in the place's top folder or a
// folder on pythonPath (the person's PYTHONPATH), or a .py file right
// inside a package folder NAME there.
func (r Reads) PythonShadows(changes []checkpoint.Change, pythonPath string) []Flag {
	on := runlater.OnSearchPath(r.root, "PYTHONPATH", pythonPath)
	var out []Flag
	for _, c := range changes {
		a, b := c.After, c.Before
		if a == nil || a.Kind != checkpoint.KindFile && a.Kind != checkpoint.KindSymlink {
			continue
		}
		if b != nil && b.Kind == a.Kind && b.Hash == a.Hash && b.Target == a.Target {
			continue // a mode or time change: the module says what it said
		}
		dir, base := path.Dir(c.Path), path.Base(c.Path)
		where, module := dir, ""
		if n, ok := pyModuleName(base); ok && shadowed[n] {
			module = n
		} else if strings.HasSuffix(base, ".py") && dir != "." && shadowed[path.Base(dir)] {
			where, module = path.Dir(dir), path.Base(dir) // ./NAME/__init__.py, ./NAME/__main__.py, ./NAME/x.py
		} else {
			continue
		}
		why := ""
		if where == "." {
			why = "at the top of the place: `python -m` typed here (python -m pip, python -m venv) imports it"
		} else if how := on.Why(where + "/x"); how != "" {
			why = "in a folder on your PYTHONPATH (" + how + "): every python you run imports it"
		} else {
			continue
		}
		out = append(out, Flag{c.Path, "a Python module named `" + module + "`, " + why + " instead of the installed " + module + ", on your machine, outside the sandbox"})
	}
	return out
}

// pyModuleName is the module a file named base is to Python's import
// (json.py, json.pyc, json.cpython-311-x86_64-linux-gnu.so, json.abi3.so),
// and whether it is one.
func pyModuleName(base string) (string, bool) {
	for _, ext := range []string{".py", ".pyc", ".so"} {
		if n, ok := strings.CutSuffix(base, ext); ok && n != "" {
			if ext == ".so" {
				n, _, _ = strings.Cut(n, ".")
			}
			return n, !strings.Contains(n, ".")
		}
	}
	return "", false
}
