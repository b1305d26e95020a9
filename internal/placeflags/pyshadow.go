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
// folder on pythonPath (the person's PYTHONPATH), a symlink named NAME
// there (a package folder kept elsewhere), or a .py, .pyc or .so file
// right inside a package folder NAME there. NAME includes sitecustomize
// and usercustomize, which Python's start-up imports from the search path
// before any program runs.
//
// Not flagged, by design: the same names in a folder of the project's
// own scripts (python3 tools/build.py imports tools/json.py first). A
// person who runs a project script runs the project's code, and every
// change beside it is in the report as one; the top of the place and
// PYTHONPATH are where the person runs the installed tool instead.
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
		} else if a.Kind == checkpoint.KindSymlink && shadowed[base] {
			module = base // ./pip -> vendor/pip: the package folder is wherever the link points
		} else if _, ok := pyModuleName(base); (ok || isPyFile(base)) && dir != "." && shadowed[path.Base(dir)] {
			where, module = path.Dir(dir), path.Base(dir) // ./NAME/__init__.py, ./NAME/__init__.pyc, ./NAME/__main__.py, ./NAME/x.so
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

// isPyFile says whether base is a file Python imports from inside a
// package folder: a .py source, a sourceless .pyc, or an extension .so
// (whatever its name's dots say: __init__.cpython-313-x86_64-linux-gnu.so).
func isPyFile(base string) bool {
	return strings.HasSuffix(base, ".py") || strings.HasSuffix(base, ".pyc") || strings.HasSuffix(base, ".so")
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
