package policy

// With the sandbox off (issue 32, pol23), npx, bunx, npm exec, pnpm dlx
// and yarn dlx of a package the workspace's package.json declares at a
// registry version (npxdeclared.go) run the project's own chosen tool: the
// package `npm ci` would install, fetched by the same name from the same
// registry. It is allowed as `npm test` and `make test` are off, and its
// arguments are judged as the installed tool's (npx prettier --write src/
// writes the workspace; prisma db push still asks). The name must be the
// one fetched: `npx tsc` fetches the package named tsc, not typescript, so
// a project declaring typescript still asks for it. In place (sentinel
// exec, on the person's own files) it is the project's tool as `npm test`
// is, allowed there too. An undeclared package is code nobody on the line
// chose: it asks (fetchRun), as does one a line that wrote a file first
// could have declared. So does a version on the line (npx vitest@latest,
// uvx ruff@0.6.9, uv tool run black==24.8.0; off30): the launcher
// downloads that version, not the one the project locked, and the newest
// release is where a hijacked package lands first.

// declaredFetchOff judges a fetch-and-run of pkg with the sandbox off or in
// place; it reports whether it did.
func (x *cmdCtx) declaredFetchOff(launcher, pkg string, toolArgs []word) bool {
	if x.c.sandbox && !x.c.inPlace || !x.declaredNpmPackage(pkg) {
		return false
	}
	mode := "(--sandbox off)"
	if x.c.inPlace {
		mode = "(in place)"
	}
	tool := npmFetchedTool(pkg)
	if tool == "" {
		tool = pkg
	}
	x.add(Allow, RuleSandboxCode, launcher+" runs "+pkg+", a dependency the project's package.json declares, as `npm test` runs it "+mode)
	fetchedProjectTool(x, tool, toolArgs)
	return true
}
