package policy

import "strings"

// find that deletes only what a build or an interpreter makes again —
// find . -name '*.pyc' -delete, find . -name __pycache__ -type d -exec
// rm -rf {} + — is cleaning, not destruction: the files come back on the
// next run, in place as in a copy. The expression must be a plain
// conjunction (no -o, !, parentheses or other tests that could widen or
// invert the match), every -name one of the artefact names below, written
// quoted so the shell does not expand it, and the only deleting action
// -delete or rm with no other operand than {}, written after a -name test:
// find evaluates left to right, so `find . -delete -name '*.pyc'` deletes
// every file before it tests the name. The starting points are still
// judged as writes.

// artefactNames are file and folder names that a build, a test run or an
// interpreter regenerates.
var artefactNames = wordSet{words: []string{"*.pyc", "*.pyo", "__pycache__", ".pytest_cache", ".mypy_cache",
	".ruff_cache", "*.o", "*.obj", "*.class", "*.gcda", "*.gcno", "*.tsbuildinfo", ".DS_Store", "*.egg-info",
	".coverage", ".hypothesis", ".tox", ".eslintcache", ".parcel-cache", ".next", ".turbo"}}

// findDeletesArtefacts reports whether expr (find's words after its
// starting points) deletes only regenerable artefacts, as above.
func findDeletesArtefacts(expr []word) bool {
	names, deletes := 0, 0
	for i := 0; i < len(expr); i++ {
		w := expr[i]
		if !w.static || w.pattern {
			return false
		}
		next := func() (string, bool) {
			if i+1 >= len(expr) || !expr[i+1].static || expr[i+1].pattern {
				return "", false
			}
			i++
			return expr[i].val, true
		}
		switch w.val {
		case "-name", "-iname":
			v, ok := next()
			if !ok || !artefactNames.has(v) {
				return false
			}
			names++
		case "-type":
			v, ok := next()
			if !ok || v != "f" && v != "d" {
				return false
			}
		case "-maxdepth", "-mindepth":
			v, ok := next()
			if !ok || !isDigits(v) {
				return false
			}
		case "-prune", "-print", "-print0", "-a", "-and", "-depth":
		case "-delete":
			if names == 0 {
				return false // deletes before any name is tested
			}
			deletes++
		case "-exec", "-execdir":
			j := i + 1
			for j < len(expr) && expr[j].val != ";" && expr[j].val != "+" {
				j++
			}
			if j >= len(expr) || !rmOfMatch(expr[i+1:j]) || names == 0 {
				return false
			}
			deletes++
			i = j
		default:
			return false
		}
	}
	return names > 0 && deletes > 0
}

// rmOfMatch is rm with only -r/-f/-v options and the match {} as operand.
func rmOfMatch(argv []word) bool {
	if len(argv) < 2 || argv[0].val != "rm" || !argv[0].static {
		return false
	}
	match := 0
	for _, a := range argv[1:] {
		switch {
		case !a.static:
			return false
		case a.val == "{}":
			match++
		case strings.HasPrefix(a.val, "-") && len(a.val) > 1 && strings.Trim(a.val[1:], "rRfv") == "":
		default:
			return false
		}
	}
	return match == 1
}
