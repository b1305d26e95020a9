package policy

import "strings"

// A snippet that imports the project's own package or a declared
// dependency to print its version, with the sandbox off (issue 32,
// off27): `python -c 'import mypkg; print(mypkg.__version__)'`, `python -c
// "import fastapi; print(fastapi.__version__)"` after `source
// .venv/bin/activate`, `uv run python -c "import mypkg; print('Setup
// OK')"`. Off, inline code is allowed only when it computes and reads
// workspace files and imports only the standard library's compute
// modules (offinline.go): `import mypkg` runs code whose text the snippet
// does not show. But importing runs only the package's import-time code,
// which the project's own `pytest` runs on every test, allowed off
// (projectbuilds_off.go). So a module that is the project's own (found in
// the workspace as `python -m` finds it, with its __init__.py,
// pymodule_off.go) or a dependency
// its manifests declare (requirements*.txt, pyproject.toml) may be
// imported, plainly (`import a, b`; not `import a as b`, not `from a
// import f`, not a submodule), when the snippet uses it only to read one
// of pyImportAttrs (`mypkg.__version__`, not followed by a call, an index
// or another attribute). The snippet with those imports left out and each
// such read replaced by a string is then judged as any other snippet off
// is (offComputeOnly): calling into the package (`mypkg.deploy()`,
// `boto3.client('s3')`) or handing the module to anything keeps asking.

// pyImportAttrs are the module attributes a snippet may read.
var pyImportAttrs = wordSet{words: []string{"__version__", "__name__", "__file__", "__doc__", "VERSION", "version"}}

// offImportsOnly allows a Python snippet that imports the project's own
// or declared packages only to read their version (see above); it reports
// whether it did.
func (x *cmdCtx) offImportsOnly(name, code string, wroteBefore bool) bool {
	if x.c.sandbox || !strings.HasPrefix(baseName(name), "python") {
		return false
	}
	var own, kept []string
	for _, stmt := range strings.FieldsFunc(code, func(r rune) bool { return r == '\n' || r == ';' }) {
		f := strings.Fields(stmt)
		if len(f) == 0 || f[0] != "import" {
			kept = append(kept, stmt)
			continue
		}
		var std []string
		for _, item := range strings.Split(strings.Join(f[1:], " "), ",") {
			g := strings.Fields(item)
			if len(g) != 1 {
				return false // import a as b
			}
			m := g[0]
			top, _, _ := strings.Cut(m, ".")
			switch {
			case pyComputeModules.has(top):
				std = append(std, m)
			case !pyIdent(m):
				return false // a submodule, or not a name
			case x.workspacePyFileOff(m, "__init__.py") || x.declaredPyPackage(strings.ToLower(strings.ReplaceAll(m, "_", "-"))):
				own = append(own, m)
			default:
				return false
			}
		}
		if len(std) > 0 {
			kept = append(kept, "import "+strings.Join(std, ", "))
		}
	}
	if len(own) == 0 {
		return false
	}
	rest := strings.Join(kept, "\n")
	for _, m := range own {
		var ok bool
		if rest, ok = replaceAttrReads(rest, m); !ok {
			return false
		}
	}
	return x.offComputeOnly(name, rest, wroteBefore)
}

// replaceAttrReads replaces every `m.ATTR` (ATTR one of pyImportAttrs) in
// code with a string literal; false when m appears in any other way.
func replaceAttrReads(code, m string) (string, bool) {
	var b strings.Builder
	for i := 0; i < len(code); {
		j := strings.Index(code[i:], m)
		if j < 0 {
			b.WriteString(code[i:])
			break
		}
		j += i
		end := j + len(m)
		if j > 0 && (isIdentByte(code[j-1]) || code[j-1] == '.') || end < len(code) && isIdentByte(code[end]) {
			b.WriteString(code[i:end]) // part of another name
			i = end
			continue
		}
		if end >= len(code) || code[end] != '.' {
			return "", false // the module itself, handed to something
		}
		k := end + 1
		for k < len(code) && isIdentByte(code[k]) {
			k++
		}
		if !pyImportAttrs.has(code[end+1:k]) || k < len(code) && strings.ContainsRune("(.[", rune(code[k])) {
			return "", false
		}
		b.WriteString(code[i:j])
		b.WriteString(`'v'`)
		i = k
	}
	return b.String(), true
}
