package policy

import (
	"os"
	"path/filepath"
	"strings"
)

// uv run --with PKG (issue 32, polcorp7): uv adds PKG, fetched from the
// package index, to the run's own throwaway environment and runs the
// command there: `uv run --with rich python scripts/report.py`. It is a
// registry install for this one run, judged as pip install of a named
// package is (depadd.go): inside the sandbox, not in place, a plain
// registry requirement (name, extras, version specifiers) is allowed and
// the command is judged as `uv run CMD` is; a URL, a path, a direct
// reference (pkg @ https://…), a variable or --with-requirements asks, and
// so does every --with with the sandbox off or in place.

// uvRunWith judges uv run with --with options; it reports whether args
// was that form.
func (x *cmdCtx) uvRunWith(args []word) bool {
	if len(args) < 3 || args[0].val != "uv" || args[1].val != "run" {
		return false
	}
	kept := []word{args[0], args[1]}
	var pkgs []string
	rest := args[2:]
	for i := 0; i < len(rest); i++ {
		v := rest[i].val
		if !strings.HasPrefix(v, "-") {
			kept = append(kept, rest[i:]...)
			break
		}
		spec, isWith := strings.CutPrefix(v, "--with=")
		if v == "--with" {
			if i+1 >= len(rest) {
				return false
			}
			i++
			spec, isWith = rest[i].val, true
			if !rest[i].static {
				return false
			}
		}
		if isWith {
			if !rest[i].static || !pypiRequirements(spec) {
				return false
			}
			pkgs = append(pkgs, spec)
			continue
		}
		kept = append(kept, rest[i])
		switch v {
		case "--extra", "--group", "--package", "--env", "-e", "--directory", "--project":
			if i+1 < len(rest) {
				i++
				kept = append(kept, rest[i])
			}
		}
	}
	if len(pkgs) == 0 {
		return false
	}
	for _, p := range pkgs {
		for _, req := range strings.Split(p, ",") {
			if name := pypiName(req); name != "" && !fetchedTools.has(name) && !x.declaredPyPackage(name) {
				x.add(Ask, RulePkgRemoteExec, "uv run --with fetches and runs "+quoteShort(name)+", a package the policy does not know and the project does not declare: nobody on this line has seen its code")
				return true
			}
		}
	}
	what := quoteShort(strings.Join(pkgs, ","))
	if !x.c.sandbox || x.c.inPlace {
		x.add(Ask, RulePkgRemoteExec, "uv run --with fetches "+what+" from the package index and runs it, and nothing contains it here")
		return true
	}
	x.add(Allow, RuleSandboxCode, "uv run --with fetches "+what+" from the package index into this run's own environment, inside the sandbox, as pip install of a named package is there")
	return envRunner(x, kept)
}

// pypiRequirements: comma-separated requirements of registry packages:
// NAME, NAME[extra], NAME>=1.2,<2 (PEP 508 without URLs or markers).
func pypiRequirements(s string) bool {
	if s == "" || len(s) > 256 || strings.Contains(s, "://") {
		return false
	}
	for i, r := range s {
		if i == 0 && !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9') {
			return false
		}
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("._-[],<>=!~*", r)) {
			return false // @ (a direct reference), / and : (paths, URLs), ; (markers), spaces
		}
	}
	return true
}

// pypiName is the normalized project name a requirement starts with
// ("" for a bare version clause of a comma list, <2).
func pypiName(req string) string {
	end := strings.IndexAny(req, "[<>=!~ ")
	if end < 0 {
		end = len(req)
	}
	return strings.ReplaceAll(strings.ToLower(req[:end]), "_", "-")
}

// declaredPyPackage reports whether the workspace's pyproject.toml or a
// requirements*.txt at its root names the package as a requirement.
func (x *cmdCtx) declaredPyPackage(name string) bool {
	if x.c.ws == "" || x.writtenBefore() {
		return false
	}
	files, _ := filepath.Glob(filepath.Join(x.c.ws, "requirements*.txt"))
	files = append(files, filepath.Join(x.c.ws, "pyproject.toml"))
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil || len(b) > 1<<20 {
			continue
		}
		section := ""
		for _, line := range strings.Split(strings.ToLower(strings.ReplaceAll(string(b), "_", "-")), "\n") {
			t := strings.TrimLeft(strings.TrimSpace(line), "\"'")
			if strings.HasPrefix(t, "[") && !strings.Contains(t, "=") {
				section = strings.Trim(t, "[] ")
			}
			if declaresReq(t, name) || inlineReqList(section, t, name) {
				return true
			}
		}
	}
	return false
}

// declaresReq: t (a line with its leading quotes taken off) starts with
// the requirement name.
func declaresReq(t, name string) bool {
	rest, ok := strings.CutPrefix(t, name)
	return ok && (rest == "" || strings.ContainsRune("[<>=!~ ;\"',", rune(rest[0])))
}

// inlineReqList (off30): a one-line list of requirements, `dev =
// ["pytest>=8", "ruff"]` or `dependencies = ["fastapi"]`, names name. Only
// the keys that hold requirements count: dependencies and
// dev-dependencies anywhere, and every key of [dependency-groups] and
// [project.optional-dependencies] (keywords = ["ruff"] does not).
func inlineReqList(section, t, name string) bool {
	key, list, ok := strings.Cut(t, "=")
	key = strings.TrimSpace(key)
	list = strings.TrimSpace(list)
	if !ok || !strings.HasPrefix(list, "[") {
		return false
	}
	if key != "dependencies" && key != "dev-dependencies" && section != "dependency-groups" && section != "project.optional-dependencies" {
		return false
	}
	for _, item := range strings.Split(strings.Trim(list, "[] "), ",") {
		if declaresReq(strings.Trim(strings.TrimSpace(item), "\"'"), name) {
			return true
		}
	}
	return false
}
