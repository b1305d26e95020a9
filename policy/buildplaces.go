package policy

import "strings"

// Arguments of a build tool's verb that the generic judgement (buildArgs)
// would send to the tool's own handler, read by class instead:
//
//   - options that name where the tool keeps its cache, scratch or
//     results (swift --cache-path .cache, dotnet --results-directory,
//     --scratch-path) are writes to that place: inside the workspace (or
//     the sandbox's private /tmp) they are the project's build, elsewhere
//     the write is judged as any write is;
//   - deno's permission flags (-A, --allow-run, --allow-net=…) grant the
//     project's code what the sandbox still confines: inside the sandbox
//     they change nothing the sandbox allows, so `deno test --allow-env
//     --allow-read` is `deno test -A` is `deno test`; with the sandbox
//     off they are judged by what their values name (denoperms_off.go);
//   - MSBuild switches written with a slash (dotnet build /clp:ErrorsOnly,
//     /p:X=Y) are the same switches as -clp:, -p:, not paths under /;
//   - dotnet test --settings FILE names a file the run reads: a read.

// placeOptions name where a tool keeps its cache, scratch or results.
var placeOptions = wordSet{words: []string{"cache-path", "cache-dir", "cache-folder", "scratch-path", "build-path",
	"results-directory", "artifacts-path", "coverage-dir", "report-dir", "reports-dir"}}

// msbuildSwitches are MSBuild's switches, which dotnet also takes as /x.
var msbuildSwitches = wordSet{words: []string{"p", "property", "t", "target", "clp", "consoleloggerparameters", "v",
	"verbosity", "m", "maxcpucount", "nologo", "restore", "r", "nr", "nodereuse", "warnaserror", "warnasmessage",
	"nowarn", "noconsolelogger", "noconlog", "tl", "terminallogger", "ds", "detailedsummary", "graph", "graphbuild",
	"isolate", "interactive", "nr:false", "flp", "fileloggerparameters", "fl", "filelogger", "bl", "binarylogger"}}

// msbuildOutputFile reads an MSBuild switch that writes a file (-bl:x.binlog,
// /binarylogger:LogFile=x, -pp:x, -ts:x, -profileevaluation:x,
// -flp:logfile=x, -flp2:…), in the / and - spellings and any case: ok says
// it is one, file is what it writes ("" when it is the default in the
// current directory).
func msbuildOutputFile(v string) (file string, ok bool) {
	var rest string
	switch {
	case strings.HasPrefix(v, "--"):
		rest = v[2:]
	case strings.HasPrefix(v, "-"), strings.HasPrefix(v, "/"):
		rest = v[1:]
	default:
		return "", false
	}
	name, val, _ := strings.Cut(rest, ":")
	name = strings.ToLower(name)
	val = strings.Trim(val, `"'`)
	switch strings.TrimRight(name, "0123456789") {
	case "bl", "binarylogger", "pp", "preprocess", "ts", "targets", "profileevaluation", "getresultoutputfile":
		if name != strings.TrimRight(name, "0123456789") {
			return "", false
		}
		for _, p := range strings.Split(val, ";") {
			if k, f, has := strings.Cut(p, "="); has && strings.EqualFold(k, "logfile") {
				return strings.Trim(f, `"'`), true
			}
		}
		if strings.Contains(val, "=") {
			val, _, _ = strings.Cut(val, ";") // ProjectImports=None and the like
			if strings.Contains(val, "=") {
				return "", true
			}
		}
		return val, true
	case "flp", "fileloggerparameters", "dfl", "distributedfilelogger", "fl", "filelogger":
		for _, p := range strings.Split(val, ";") {
			if k, f, has := strings.Cut(p, "="); has && strings.EqualFold(strings.TrimSpace(k), "logfile") {
				return strings.Trim(f, `"'`), true
			}
		}
		return "", true
	}
	return "", false
}

// buildPlaces judges the arguments above of tool's verb and returns the
// rest, for buildArgs.
func (x *cmdCtx) buildPlaces(tool, verb string, args []word) []word {
	var out []word
	for i := 0; i < len(args); i++ {
		w := args[i]
		if !w.static || w.brace {
			out = append(out, w)
			continue
		}
		v := w.val
		if span := selectsTarget(tool, verb, args, i); span > 0 { // workdir.go: swift build --target MyTarget
			i += span - 1
			continue
		}
		if tool == "dotnet" {
			if file, ok := msbuildOutputFile(v); ok {
				if file != "" {
					x.capturing(func() { x.writeStr(file) })
				}
				continue
			}
		}
		if tool == "dotnet" && strings.HasPrefix(v, "/") && len(v) > 1 {
			name, _, _ := strings.Cut(v[1:], ":")
			if msbuildSwitches.has(strings.ToLower(name)) {
				w.val = "-" + v[1:]
				out = append(out, w)
				continue
			}
		}
		if tool == "dotnet" && verb == "test" && (v == "-s" || strings.HasPrefix(v, "--settings:") || strings.HasPrefix(v, "-s:")) {
			// dotnet test --settings FILE (-s, twinArgs): the test run's
			// settings, a file the run reads (its data collectors and
			// adapters are the project's, as its test projects are).
			_, f, _ := strings.Cut(v, ":")
			if f == "" && i+1 < len(args) && args[i+1].static {
				i++
				f = args[i].val
			}
			if f != "" {
				x.readStr(strings.Trim(f, `"`))
				continue
			}
		}
		if tool == "deno" && x.c.sandbox && (v == "-A" || v == "--allow-all" || strings.HasPrefix(v, "--allow-")) {
			continue
		}
		if tool == "deno" && !x.c.sandbox && strings.HasPrefix(v, "--allow") { // denoperms_off.go
			if !x.denoPermissionOff(v, args[i+1:]) {
				x.add(Ask, RuleBuildOption, "deno "+quoteShort(v)+" grants the project's code more than its own workspace and loopback")
			}
			continue
		}
		if strings.HasPrefix(v, "--") {
			name, val, has := strings.Cut(v[2:], "=")
			if !has {
				name, val, has = strings.Cut(name, ":") // dotnet --results-directory:x
			}
			if placeOptions.has(strings.ToLower(name)) {
				if !has {
					if i+1 >= len(args) || !args[i+1].static || strings.HasPrefix(args[i+1].val, "-") {
						out = append(out, w) // its handler judges it
						continue
					}
					i++
					val = args[i].val
				}
				x.capturing(func() { x.writeStr(strings.Trim(val, `"`)) })
				continue
			}
		}
		out = append(out, w)
	}
	return out
}
