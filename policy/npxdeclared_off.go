package policy

// With the sandbox off (issue 32, pol23), npx, bunx, npm exec, pnpm dlx
// and yarn dlx of a package the workspace's package.json declares at a
// registry version (npxdeclared.go) run the project's own chosen tool: the
// package `npm ci` would install, fetched by the same name from the same
// registry. It is allowed as `npm test` and `make test` are off, and its
// arguments are judged as the installed tool's (npx prettier --write src/
// writes the workspace; prisma db push still asks). The name must be the
// one fetched: `npx tsc` fetches the package named tsc, not typescript, so
// a project declaring typescript still asks for it. An undeclared package
// is code nobody on the line chose: it asks, as does any package in place
// (fetchRun) and one a line that wrote a file first could have declared.

// declaredFetchOff judges a fetch-and-run of pkg with the sandbox off; it
// reports whether it did.
func (x *cmdCtx) declaredFetchOff(launcher, pkg string, toolArgs []word) bool {
	if x.c.sandbox || !x.declaredNpmPackage(pkg) {
		return false
	}
	tool := npmFetchedTool(pkg)
	if tool == "" {
		tool = pkg
	}
	x.add(Allow, RuleSandboxCode, launcher+" runs "+pkg+", a dependency the project's package.json declares, as `npm test` runs it (--sandbox off)")
	fetchedProjectTool(x, tool, toolArgs)
	return true
}
