package policy

import (
	_ "embed"
	"fmt"
	"strings"

	"github.com/BurntSushi/toml"
)

// Well-known developer tools fetched and run with the sandbox off (issue
// 32, the lead's decision, off31). `npx prettier --check .`, `uvx ruff
// check .` and their kin in a workspace that does not declare the tool
// download it and run it on the host. The lead decided that off (and in
// place) they are allowed only for the named list in offtools.toml: tools
// whose command name is their one canonical package on the registry, each
// with the page that shows it. `npx tsc` alone is not one (it fetches the
// unrelated package called tsc): typescript's tsc is allowed only when the
// line names the package (`npx -p typescript tsc`), and an installed or
// declared copy is the project's own (npxlocal.go, npxdeclared_off.go).
//
// Still asked, whatever the list says: a version on the line (off30: the
// project did not lock that release), a launcher option the policy does not
// know, a --package naming anything but the entry's package, a line that
// wrote a file before (it may have written a registry configuration), a
// working directory the policy cannot place, an environment prefix that
// configures the package manager, and a workspace whose own configuration
// redirects the registry or index (.npmrc, bunfig.toml, uv.toml, pip.conf,
// a pyproject index: registryquery_off.go). A custom registry on the line
// stays denied (fetchrun.go). The tool's own arguments are judged as the
// installed tool's are (fetchedProjectTool): prisma db push, lerna publish
// and nx release keep their decisions.

// OffTool is one entry of offtools.toml.
type OffTool struct {
	Command string `toml:"command"`
	Package string `toml:"package"`
	Source  string `toml:"source"`
}

//go:embed offtools.toml
var offToolsTOML string

// offToolLists are offtools.toml's entries by registry ("npm", "pypi"),
// read on first use.
var offToolLists = lazy[map[string][]OffTool]{build: func() map[string][]OffTool {
	m, err := loadOffTools(offToolsTOML)
	if err != nil {
		panic(err) // a build-time mistake: TestOffToolsListLoads reads it
	}
	return m
}}

func loadOffTools(src string) (map[string][]OffTool, error) {
	var file map[string][]OffTool
	md, err := toml.Decode(src, &file)
	if err != nil {
		return nil, fmt.Errorf("policy/offtools.toml: %w", err)
	}
	if un := md.Undecoded(); len(un) > 0 {
		return nil, fmt.Errorf("policy/offtools.toml: unknown key %q (want command, package and source)", un[0].String())
	}
	for reg, list := range file {
		if reg != "npm" && reg != "pypi" {
			return nil, fmt.Errorf("policy/offtools.toml: unknown registry [[%s]] (want npm or pypi)", reg)
		}
		for _, e := range list {
			if e.Command == "" || e.Package == "" || !strings.Contains(e.Source, "https://") {
				return nil, fmt.Errorf("policy/offtools.toml: %s entry %q needs a command, a package and a source page", reg, e.Command)
			}
			if _, ok := npmRegistrySpec(e.Package); reg == "npm" && (!ok || strings.Contains(strings.TrimPrefix(e.Package, "@"), "@")) {
				return nil, fmt.Errorf("policy/offtools.toml: %q is not an npm package name", e.Package)
			}
		}
	}
	return file, nil
}

// offListedTool finds the entry of registry whose package is pkg and
// command is cmd. cmd is "" when the line named only the package (`npx
// prettier`, `npx @biomejs/biome`): then the package must be the command's
// own name, or scoped (npx runs a scoped package's one program).
func offListedTool(registry, pkg, cmd string) (OffTool, bool) {
	for _, e := range offToolLists.get()[registry] {
		if e.Package != pkg {
			continue
		}
		if cmd == "" && (e.Command == pkg || strings.HasPrefix(pkg, "@")) || cmd == e.Command {
			return e, true
		}
	}
	return OffTool{}, false
}

// launcherRegistryProg names the package manager whose configuration a
// launcher reads (registryConfigFiles).
func launcherRegistryProg(launcher string) string {
	switch launcher {
	case "bunx":
		return "bun"
	case "pnpx", "pnpm dlx":
		return "pnpm"
	case "yarn dlx":
		return "yarn"
	case "uvx", "uv tool run":
		return "uv"
	case "pipx run":
		return "pip"
	}
	return "npm"
}

// offListedFetch allows, with the sandbox off, a fetch-and-run
// by launcher of the listed package pkg running cmd ("" as in
// offListedTool), and judges the tool's arguments with judge; it reports
// whether it decided. Inside the sandbox fetchRun decides.
func (x *cmdCtx) offListedFetch(launcher, registry, pkg, cmd string, judge func(tool string)) bool {
	if x.c.sandbox {
		return false // inside the sandbox fetchRun decides (in place it asks)
	}
	e, ok := offListedTool(registry, pkg, cmd)
	if !ok || !x.offFetchUnredirected(launcherRegistryProg(launcher)) {
		return false
	}
	x.add(Allow, RuleSandboxCode, launcher+" runs "+e.Command+" from "+e.Package+", a well-known developer tool of policy/offtools.toml, from the person's own registry (--sandbox off)")
	judge(e.Command)
	return true
}

// offFetchUnredirected reports whether the launcher's package manager prog
// fetches from the person's own registry: the line wrote nothing before,
// runs in a known directory of the workspace, configures no package
// manager in its environment prefix, and no file of the workspace
// redirects the registry (registryquery_off.go).
func (x *cmdCtx) offFetchUnredirected(prog string) bool {
	if x.part == nil || x.c.ws == "" || x.cw.unknown || x.writtenBefore() {
		return false
	}
	for _, a := range x.part.Assigns {
		name, _, _ := strings.Cut(a, "=")
		if packageManagerEnv(name) {
			return false
		}
	}
	if prog == "pip" && x.projectRegistryConfig("uv") {
		return false
	}
	return !x.projectRegistryConfig(prog)
}

// packageManagerEnv reports whether an environment variable configures a
// package manager or index (npm_config_registry, UV_INDEX_URL,
// PIP_INDEX_URL, BUN_CONFIG_REGISTRY, YARN_NPM_REGISTRY_SERVER,
// NODE_EXTRA_CA_CERTS, PNPM_HOME, HOME, a proxy…). NODE_ENV and CI do
// not; NODE_OPTIONS is judged by its value elsewhere (envvalue.go).
func packageManagerEnv(name string) bool {
	low := strings.ToLower(name)
	for _, p := range []string{"npm_", "yarn_", "pnpm_", "bun_", "uv_", "pip_", "pipx_", "python", "ssl_", "requests_", "http", "https", "all_proxy", "no_proxy", "xdg_", "home", "path"} {
		if strings.HasPrefix(low, p) {
			return true
		}
	}
	for _, w := range []string{"registry", "index", "proxy", "config", "cert", "token", "auth"} {
		if strings.Contains(low, w) {
			return true
		}
	}
	return false
}

// fetchedToolBeyondProject names what a fetched or declared npm tool's
// arguments do beyond checking, building or testing the project, which
// asks with the sandbox off and in place (fetchedProjectTool): tsx and
// ts-node evaluating inline code or opening a console, playwright
// downloading browsers into the person's cache (install-deps and
// --with-deps install system packages with sudo), eslint --init fetching
// and installing a configuration package, eslint --inspect-config fetching
// and running the config inspector. "" for the rest.
func fetchedToolBeyondProject(tool string, args []word) string {
	ops := operands(args, "", nil)
	for _, a := range args {
		name, _, _ := strings.Cut(a.val, "=")
		switch {
		case (tool == "tsx" || tool == "ts-node") && (name == "-e" || name == "--eval" || name == "-p" || name == "--print" || name == "-i" || name == "--interactive"):
			return "runs inline code (" + name + ")"
		case (tool == "tsx" || tool == "ts-node") && len(name) > 2 && name[0] == '-' && name[1] != '-' && strings.ContainsAny(name, "epi"):
			// a bundle of short options, as node reads one: -pe CODE is
			// --print --eval CODE (revpol)
			return "runs inline code (" + name + ")"
		case tool == "eslint" && name == "--init":
			return "--init fetches and installs a configuration package"
		case tool == "eslint" && name == "--inspect-config":
			// eslint spawns `npx @eslint/config-inspector@latest` (revpol)
			return "--inspect-config fetches and runs @eslint/config-inspector@latest"
		}
	}
	if (tool == "tsx" || tool == "ts-node") && len(ops) == 0 {
		return "opens a console"
	}
	if tool == "playwright" && len(ops) > 0 && (ops[0].val == "install" || ops[0].val == "install-deps" || ops[0].val == "uninstall") {
		return ops[0].val + " downloads browsers or system packages outside the workspace"
	}
	return ""
}
