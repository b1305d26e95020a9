package policy

import (
	"encoding/json"
	"os"
	"strings"
)

// .NET local tools (issue 32 item 4, polcorp7/polcorp8 everyday/dotnet):
// `dotnet csharpier --check .`, `dotnet tool run reportgenerator
// -reports:… -targetdir:…`. A local tool is a NuGet package the project's
// manifest (.config/dotnet-tools.json) pins, installed by `dotnet tool
// restore` and run as `dotnet tool run NAME` or `dotnet NAME`
// (https://learn.microsoft.com/dotnet/core/tools/local-tools-how-to-use):
// the project's chosen tool, as a package.json devDependency run by npx
// is (npxdeclared.go). Inside the sandbox and never in place, a tool the
// manifest in the workspace declares, or one of the usual formatters and
// report tools (dotnetDevTools), is allowed; its path arguments (the
// -name:VALUE form included) are judged as reads, an output or target
// directory as a write. dotnet's own commands (user-secrets, dev-certs,
// workload, nuget…) are not tools and go to dotnet's handler, as does any
// tool with the sandbox off.

// dotnetDevTools are local tools that format, analyse or report.
var dotnetDevTools = wordSet{words: []string{"csharpier", "reportgenerator", "fantomas", "roslynator", "dotnet-stryker",
	"stryker", "trx2junit", "dotnet-coverage", "coverlet", "jb", "dotnet-outdated", "outdated", "dotnet-format"}}

// dotnetOwn are dotnet's own commands, never a local tool.
var dotnetOwn = wordSet{words: []string{"add", "build", "build-server", "clean", "dev-certs", "format", "help", "list", "msbuild",
	"new", "nuget", "pack", "package", "publish", "remove", "restore", "run", "sdk", "sln", "store", "test", "tool", "vstest",
	"watch", "workload", "fsi", "user-secrets", "user-jwts", "ef", "exec", "reference", "project"}}

// dotnetLocalTool wraps dotnet's handler.
func dotnetLocalTool(prev handler) handler {
	return func(x *cmdCtx, args []word) {
		name, rest, ok := dotnetToolLine(args)
		if !ok || !x.c.sandbox || x.c.inPlace || !dotnetDevTools.has(name) && !x.dotnetManifestTool(name) {
			prev(x, args)
			return
		}
		var reads, writes []string
		for i := 0; i < len(rest); i++ {
			w := rest[i]
			if !w.static || w.brace {
				prev(x, args)
				return
			}
			v := w.val
			opt, val, joined := strings.Cut(v, ":")
			if !strings.HasPrefix(v, "-") || !joined {
				opt, val, joined = strings.Cut(v, "=")
			}
			switch {
			case strings.HasPrefix(v, "-") && joined:
				if dotnetToolOutput(opt) {
					writes = append(writes, strings.Trim(val, `"'`))
				} else if strings.ContainsAny(val, "/\\") || val == "." {
					reads = append(reads, strings.Trim(val, `"'`))
				}
			case strings.HasPrefix(v, "-"):
				if dotnetToolOutput(v) && i+1 < len(rest) {
					i++
					writes = append(writes, rest[i].val)
				}
			default:
				reads = append(reads, v)
			}
		}
		x.add(Allow, RuleSandboxCode, "dotnet "+name+" runs a .NET tool the project pins (or a usual formatter or report tool), inside the sandbox")
		x.inWorkspace()
		for _, r := range reads {
			x.readStr(r)
		}
		for _, w := range writes {
			x.writeStr(w)
		}
	}
}

// dotnetToolOutput: an option that names where a tool writes.
func dotnetToolOutput(opt string) bool {
	o := strings.ToLower(strings.TrimLeft(opt, "-"))
	return o == "o" || o == "output" || o == "targetdir" || o == "out" || strings.HasSuffix(o, "outputdir") || strings.HasSuffix(o, "output")
}

// dotnetToolLine reads dotnet tool run NAME ARGS and dotnet NAME ARGS.
func dotnetToolLine(args []word) (string, []word, bool) {
	if len(args) < 2 || !args[1].static {
		return "", nil, false
	}
	name, rest := args[1].val, args[2:]
	if name == "tool" {
		if len(args) < 4 || !args[2].static || args[2].val != "run" || !args[3].static {
			return "", nil, false
		}
		name, rest = args[3].val, args[4:]
	} else if dotnetOwn.has(name) {
		return "", nil, false
	}
	if name == "" || strings.HasPrefix(name, "-") || !plainToken(name) || strings.ContainsAny(name, "./\\") {
		return "", nil, false // dotnet app.dll runs a program, not a tool
	}
	return name, rest, true
}

// dotnetManifestTool reports whether the workspace's tool manifest
// (.config/dotnet-tools.json or dotnet-tools.json at the root) names a
// tool with that command.
func (x *cmdCtx) dotnetManifestTool(name string) bool {
	if x.c.ws == "" || x.writtenBefore() {
		return false
	}
	for _, rel := range []string{".config/dotnet-tools.json", "dotnet-tools.json"} {
		b, err := os.ReadFile(rawJoin(x.c.ws, rel))
		if err != nil || len(b) > 1<<20 {
			continue
		}
		var m struct {
			Tools map[string]struct {
				Commands []string `json:"commands"`
			} `json:"tools"`
		}
		if json.Unmarshal(b, &m) != nil {
			continue
		}
		for _, t := range m.Tools {
			for _, c := range t.Commands {
				if c == name || c == "dotnet-"+name {
					return true
				}
			}
		}
	}
	return false
}

// addDotnetToolHandlers wraps dotnet's handler.
func addDotnetToolHandlers(handlers map[string]handler) {
	handlers["dotnet"] = dotnetLocalTool(orUnknown(handlers["dotnet"]))
}
