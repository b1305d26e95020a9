package policy

import (
	"strings"
)

// Fetch-and-run: npx, npm exec/x, bunx, bun x, pnpx, pnpm dlx, yarn dlx,
// uvx, uv tool run, pipx run and deno run npm:… each download a package
// and run its program in one step. They are one class, judged by what is
// fetched, never by how the launcher is spelled:
//
//   - A tool the policy knows (the ecosystem's usual type checkers,
//     linters, formatters, test runners and bundlers: npxDevTools,
//     fetchedTools), from the default registry, at any plain version: it
//     is the registry's copy of the project's own dev tool. Inside the
//     sandbox, in a disposable copy, it runs sandboxed as the installed
//     tool would — its writes land in the copy, its network goes through
//     the egress proxy's host allowlist — and is judged as that tool is
//     (its options, the files it names). In place (the person's own
//     files) or with the sandbox off nothing contains it: it asks.
//   - Any other package is code nobody on the line has seen (a typosquat
//     looks like a tool): it asks, in every mode.
//   - A spec that is not a registry name (a URL, git+…, github:…, a
//     tarball or a path), or -p/--package naming the packages apart from
//     the program, asks; a custom registry or index is denied, as it is
//     for installs; -c/--call runs a shell string and is denied.
//   - -y/--yes only answer npm's "Ok to proceed?" prompt, which an agent
//     without a terminal never sees: they change nothing.
//
// npx and bunx first run the project's installed copy
// (node_modules/.bin/NAME) when there is one: that is the project's own
// tool, not a fetch.

// fetchRun decides a fetch-and-run of pkg by launcher (see above); judge
// judges the tool's own arguments when it runs.
func (x *cmdCtx) fetchRun(launcher, pkg string, known bool, judge func()) {
	switch {
	case !known:
		x.add(Ask, RulePkgRemoteExec, launcher+" fetches and runs "+quoteShort(pkg)+", a package the policy does not know: nobody on this line has seen its code")
	case !x.c.sandbox:
		x.add(Ask, RulePkgRemoteExec, launcher+" fetches "+pkg+" from the registry and runs it, and the sandbox is off")
	case x.c.inPlace:
		x.add(Ask, RulePkgRemoteExec, launcher+" fetches "+pkg+" from the registry and runs it on the person's own files")
	default:
		x.add(Allow, RuleSandboxCode, launcher+" fetches "+pkg+" from the registry and runs it inside the sandbox, whose network goes through the egress proxy")
		judge()
	}
}

// npmRegistrySpec reads an npm package spec: NAME, NAME@VERSION,
// @SCOPE/NAME[@VERSION]. ok is false for anything else (a URL, git+…,
// github:user/repo, user/repo, a tarball, a path).
func npmRegistrySpec(spec string) (name string, ok bool) {
	rest, scope := spec, ""
	if strings.HasPrefix(spec, "@") {
		s, r, found := strings.Cut(spec[1:], "/")
		if !found || !npmNamePart(s) {
			return "", false
		}
		scope, rest = "@"+s+"/", r
	}
	n, v, hasV := strings.Cut(rest, "@")
	if !npmNamePart(n) || hasV && !plainToken(v) {
		return "", false
	}
	return scope + n, true
}

func npmNamePart(s string) bool {
	if s == "" || s[0] == '.' || s[0] == '_' {
		return false
	}
	for _, r := range s {
		if !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '-' || r == '.' || r == '_') {
			return false
		}
	}
	return true
}

// npmFetchedTool is the program an npm package of npxDevTools runs
// (@biomejs/biome runs biome), "" for a package the policy does not know.
func npmFetchedTool(pkg string) string {
	if pkg == "typescript" {
		return "tsc"
	}
	if pkg == "@biomejs/biome" {
		return "biome"
	}
	if npxDevTools.has(pkg) || npxSchemaTools.has(pkg) { // npxdeclared.go
		return pkg
	}
	return ""
}

// npxCmd: npx, bunx, npm exec/x and bun x run the project's installed copy
// of a tool, or fetch and run a package (fetchRun). pnpx is pnpm dlx.
func npxCmd(x *cmdCtx, args []word) {
	npxRun(x, args[0].val, args[1:], args[0].val != "pnpx")
}

// dlxCmd: pnpm dlx and yarn dlx always fetch; their words after dlx.
func dlxCmd(x *cmdCtx, launcher string, args []word) {
	for i, a := range args {
		if a.val == "dlx" {
			npxRun(x, launcher, args[i+1:], false)
			return
		}
	}
	x.add(Ask, RulePkgRemoteExec, launcher+" runs code the request does not show")
}

func npxRun(x *cmdCtx, launcher string, rest []word, local bool) {
	noInstall := false
	for i := 0; i < len(rest); i++ {
		a := rest[i].val
		name, _, _ := strings.Cut(a, "=")
		switch {
		case !rest[i].static || rest[i].pattern:
			x.add(Ask, RulePkgRemoteExec, launcher+" "+quoteShort(a)+" is not known before it runs")
			return
		case a == "-c" || name == "--call":
			x.add(Deny, RulePkgRemoteExec, launcher+" "+a+" runs a shell string with the fetched packages")
			return
		case a == "-p" || name == "--package":
			if npxListedPackage(x, launcher, rest[i:]) { // offtools.go: npx -p typescript tsc
				return
			}
			x.add(Ask, RulePkgRemoteExec, launcher+" "+a+" names the packages it fetches apart from the program it runs")
			return
		case strings.Contains(name, "registry") || name == "--userconfig" || name == "--globalconfig":
			x.add(Deny, RulePkgIndex, launcher+" "+name+" fetches from another registry or configuration")
			return
		case a == "-y" || a == "--yes" || a == "--bun" || a == "-q" || a == "--quiet" || a == "--silent" || a == "--":
			// the install prompt's answer, output, bun's runtime
		case a == "--no-install" || a == "--no" || a == "--offline":
			noInstall = true
		case strings.HasPrefix(a, "-"):
			x.add(Ask, RulePkgRemoteExec, launcher+" option "+a+" the policy does not know")
			return
		default:
			npxPackage(x, launcher, a, rest[i+1:], local, noInstall)
			return
		}
	}
	x.add(Ask, RulePkgRemoteExec, launcher+" with no package")
}

func npxPackage(x *cmdCtx, launcher, spec string, toolArgs []word, local, noInstall bool) {
	pkg, ok := npmRegistrySpec(spec)
	if !ok {
		x.add(Ask, RulePkgRemoteExec, launcher+" "+quoteShort(spec)+" fetches and runs code from outside the registry")
		return
	}
	if local && pkg == spec && !strings.HasPrefix(pkg, "@") {
		if x.c.ws == "" || x.cw.unknown {
			x.add(Ask, RulePkgRemoteExec, launcher+" "+pkg+" may fetch and run a package")
			return
		}
		installed := x.projectBinInstalled(pkg) // npxlocal.go
		if installed || noInstall {
			// The project's installed copy runs; with --no-install
			// nothing is downloaded: the installed program of that name
			// runs, or it fails.
			tool := append([]word{{val: pkg, static: true}}, toolArgs...)
			if installed {
				fetchedProjectTool(x, pkg, toolArgs) // npxdeclared.go: an installed prisma's db push still asks
			} else {
				x.command(tool, 1)
			}
			return
		}
	}
	// A version on the line (vitest@latest) is a download of that version,
	// not the one the project locked: it is not the declared tool (off30).
	if pkg == spec && x.declaredFetchOff(launcher, pkg, toolArgs) { // npxdeclared_off.go
		return
	}
	if pkg == spec && x.offListedFetch(launcher, "npm", pkg, "", func(tool string) { fetchedProjectTool(x, tool, toolArgs) }) { // offtools.go
		return
	}
	tool := npmFetchedTool(pkg)
	if tool == "" && x.declaredNpmPackage(pkg) { // npxdeclared.go: the project's own dependency
		tool = pkg
	}
	x.fetchRun(launcher, pkg, tool != "", func() {
		fetchedProjectTool(x, tool, toolArgs) // npxdeclared.go: prisma db push asks
	})
}

// npxListedPackage judges `LAUNCHER -p PKG [--] CMD ARGS…` (also
// --package PKG, --package=PKG) when PKG, at no version, is the package of
// the listed tool CMD (offtools.toml): `npx -p typescript tsc --noEmit`.
// Inside the disposable sandbox it is a known fetch (fetchRun); elsewhere
// offListedFetch decides. It reports whether it judged the line; any other
// shape (a second -p, a version, another option) is left to ask.
func npxListedPackage(x *cmdCtx, launcher string, rest []word) bool {
	a := rest[0].val
	pkg, hasVal := strings.CutPrefix(a, "--package=")
	next := 1
	if !hasVal {
		if len(rest) < 2 || !rest[1].static || rest[1].pattern {
			return false
		}
		pkg, next = rest[1].val, 2
	}
	if next < len(rest) && rest[next].val == "--" {
		next++
	}
	if next >= len(rest) || !rest[next].static || rest[next].pattern {
		return false
	}
	cmd, toolArgs := rest[next].val, rest[next+1:]
	if _, ok := offListedTool("npm", pkg, cmd); !ok {
		return false
	}
	judge := func(tool string) { fetchedProjectTool(x, tool, toolArgs) }
	if x.offListedFetch(launcher, "npm", pkg, cmd, judge) {
		return true
	}
	x.fetchRun(launcher, pkg, true, func() { judge(cmd) })
	return true
}

// denoNpmRun: deno run [permission flags] npm:PKG[@VERSION][/BIN] ARGS is
// a fetch-and-run of an npm package (fetchRun). It reports whether it
// judged the line; any other option or specifier (jsr:, https:) is left to
// the deno handler, which asks.
func denoNpmRun(x *cmdCtx, rest []word) bool {
	for i, w := range rest {
		v := w.val
		if !w.static {
			return false
		}
		if strings.HasPrefix(v, "-") {
			if v == "-A" || v == "--allow-all" || v == "-q" || v == "--quiet" || strings.HasPrefix(v, "--allow-") && !strings.Contains(v, "=") {
				continue
			}
			return false
		}
		spec, ok := strings.CutPrefix(v, "npm:")
		if !ok {
			return false
		}
		spec, _, _ = strings.Cut(strings.TrimPrefix(spec, "/"), "/") // npm:vite/bin: the package's own program
		if strings.HasPrefix(v, "npm:@") {
			return false // a scope and a program path read alike: asks
		}
		pkg, ok := npmRegistrySpec(spec)
		if !ok {
			return false
		}
		tool := npmFetchedTool(pkg)
		x.fetchRun("deno run", pkg, tool != "", func() {
			projectTool(x, append([]word{{val: tool, static: true}}, rest[i+1:]...))
		})
		return true
	}
	return false
}
