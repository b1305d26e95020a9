package policy

// uvx, uv tool run and pipx run of a tool the project declares, with the
// sandbox off or in place (issue 32, off24), as npx of a declared npm
// package is (npxdeclared_off.go): `uvx ruff check .` where pyproject.toml
// lists ruff (in [dependency-groups], [tool.uv] dev-dependencies,
// [project.optional-dependencies] or a poetry group) or a
// requirements*.txt at the root does. The launcher fetches the package of
// that very name from the same index `uv sync` installs it from: it is the
// project's own chosen tool, the same risk as `uv run ruff` after a sync,
// and its arguments are judged as the tool's (ruff format writes the
// workspace). What still asks: a name the project does not declare (code
// nobody on the line chose), --from/--with or any launcher option before
// the name (fetchedTool passes those on), a custom index (denied there),
// and a line that wrote a file before (it may have written the
// declaration).

// declaredPyToolOff judges a fetch-and-run of name with the sandbox off or
// in place; it reports whether it did.
func (x *cmdCtx) declaredPyToolOff(launcher, name string, judge func()) bool {
	if x.c.sandbox && !x.c.inPlace || x.cw.unknown || !plainToken(name) || !x.declaredPyPackage(name) { // uvwith.go
		return false
	}
	mode := "(--sandbox off)"
	if x.c.inPlace {
		mode = "(in place)"
	}
	x.add(Allow, RuleSandboxCode, launcher+" runs "+name+", a tool the project's pyproject.toml or requirements declare, as `uv run` runs it "+mode)
	judge()
	return true
}
