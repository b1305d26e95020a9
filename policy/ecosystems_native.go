package policy

import "strings"

// C and C++ builds: cmake, meson, ninja and the compilers themselves.
// Registered by addEcosystemHandlers (ecosystems.go).

// cmakeCacheVars are CMAKE_* cache variables that choose a build type or
// a language standard; the others (compilers, launchers, toolchain
// files, module paths) choose which program runs. Project options (names
// without CMAKE_) only feed the project's own CMakeLists.
var cmakeCacheVars = wordSet{words: []string{"CMAKE_BUILD_TYPE", "CMAKE_EXPORT_COMPILE_COMMANDS", "CMAKE_CXX_STANDARD",
	"CMAKE_C_STANDARD", "CMAKE_CXX_STANDARD_REQUIRED", "CMAKE_CXX_EXTENSIONS", "CMAKE_POSITION_INDEPENDENT_CODE",
	"CMAKE_VERBOSE_MAKEFILE", "CMAKE_COLOR_DIAGNOSTICS", "CMAKE_UNITY_BUILD", "CMAKE_INTERPROCEDURAL_OPTIMIZATION",
	"CMAKE_MESSAGE_LOG_LEVEL", "CMAKE_CXX_FLAGS", "CMAKE_C_FLAGS"}}

func cmakeDefine(def string) bool {
	k, v, ok := strings.Cut(def, "=")
	k, _, _ = strings.Cut(k, ":") // -DNAME:BOOL=ON
	if !ok || !plainToken(k) {
		return false
	}
	if k == "CMAKE_CXX_FLAGS" || k == "CMAKE_C_FLAGS" {
		return flagsJudge(cFlag)(v)
	}
	if k == "CMAKE_TOOLCHAIN_FILE" || k == "CMAKE_PROJECT_INCLUDE" || k == "CMAKE_PROJECT_TOP_LEVEL_INCLUDES" {
		// CMake code of the project, as its CMakeLists.txt is: a path
		// under the directory cmake runs in (inside the workspace)
		return v != "" && !strings.HasPrefix(v, "/") && !strings.HasPrefix(v, "~") && !strings.Contains(v, "..") &&
			!strings.ContainsAny(v, "$`;") && !strings.Contains(v, "://")
	}
	if strings.HasPrefix(strings.ToUpper(k), "CMAKE_") {
		if lang, ok := strings.CutSuffix(k, "_COMPILER"); ok && cmakeLang(lang) {
			return knownCompiler(v)
		}
		if lang, ok := strings.CutSuffix(k, "_COMPILER_LAUNCHER"); ok && cmakeLang(lang) {
			return v == "ccache" || v == "sccache"
		}
		return cmakeCacheVars.has(k) && plainToken(v)
	}
	return plainToken(v)
}

// cmakeGenerator: the generators that write build files for make or
// ninja in the build directory.
func cmakeGenerator(g string) bool {
	return g == "Ninja" || g == "Unix Makefiles" || g == "Ninja Multi-Config"
}

// cmakeLang: a language cmake keeps a CMAKE_<LANG>_COMPILER for.
func cmakeLang(l string) bool {
	switch l {
	case "CMAKE_C", "CMAKE_CXX", "CMAKE_OBJC", "CMAKE_OBJCXX", "CMAKE_CUDA", "CMAKE_Fortran", "CMAKE_ASM":
		return true
	}
	return false
}

// knownCompiler: a compiler named by its bare name (found on PATH, as
// typing it would be), optionally versioned (clang++-17, g++-13); a path
// names some other program and asks.
func knownCompiler(v string) bool {
	base := strings.TrimRight(v, "0123456789.")
	base = strings.TrimSuffix(base, "-")
	switch base {
	case "gcc", "g++", "cc", "c++", "clang", "clang++", "clang-cl", "nvcc", "gfortran":
		return true
	}
	return false
}

// ninjaReadTools are ninja -t tools that print names from the build
// graph and build nothing (ninja runs them before it would regenerate
// build.ninja). commands and compdb, which print whole command lines with
// whatever values the configure step baked into them, stay asked
// (ecosystems_adversarial.txt).
var ninjaReadTools = wordSet{words: []string{"targets", "query", "deps", "graph", "inputs", "outputs", "rules",
	"missingdeps", "list", "multi-inputs"}}

// cmakeCommands map `cmake -E CMD` to the command it performs, judged as
// that command; other -E commands ask.
var cmakeCommands = lazy[map[string][]string]{build: func() map[string][]string {
	return map[string][]string{
		"rm": {"rm"}, "remove": {"rm", "-f"}, "remove_directory": {"rm", "-r"}, "make_directory": {"mkdir", "-p"},
		"touch": {"touch"}, "copy": {"cp"}, "copy_directory": {"cp", "-r"}, "rename": {"mv"}, "echo": {"echo"},
		"cat": {"cat"}, "sha256sum": {"sha256sum"}, "md5sum": {"md5sum"}, "create_symlink": {"ln", "-s"},
	}
}}

// cmakeCmd allows configuring (-S/-B, -D of a build type or project
// option, -G), building (--build DIR with -j/--target/--config) and
// listing; it asks for -P scripts, -E commands, --install and toolchain
// or compiler choices.
func cmakeCmd(x *cmdCtx, args []word) {
	if len(args) > 2 && args[1].val == "-E" {
		if as, known := cmakeCommands.get()[args[2].val]; known && args[2].static {
			x.add(Allow, RuleBuildProject, "cmake -E "+args[2].val+" is judged as the command it performs")
			inner := make([]word, 0, len(as)+len(args)-3)
			for _, a := range as {
				inner = append(inner, word{val: a, static: true})
			}
			x.nested(append(inner, args[3:]...), "cmake -E")
			return
		}
		x.add(Ask, RuleBuildOption, "cmake -E "+args[2].val+" is a command mode the policy does not follow")
		return
	}
	ok := len(args) > 1
	var dirs, outs []word
	for i := 1; i < len(args) && ok; i++ {
		a := args[i]
		v := a.val
		next := func() (word, bool) {
			if i+1 >= len(args) || !args[i+1].static {
				return word{}, false
			}
			i++
			return args[i], true
		}
		switch {
		case !a.static:
			ok = false
		case v == "-S":
			w, got := next()
			ok = got
			dirs = append(dirs, w)
		case v == "-B" || v == "--build":
			w, got := next()
			ok = got
			outs = append(outs, w)
		case strings.HasPrefix(v, "-S") || strings.HasPrefix(v, "-B"):
			w := word{val: v[2:], static: true}
			if v[1] == 'S' {
				dirs = append(dirs, w)
			} else {
				outs = append(outs, w)
			}
		case v == "-G":
			w, got := next()
			ok = got && cmakeGenerator(w.val)
		case strings.HasPrefix(v, "-G"):
			ok = cmakeGenerator(v[2:])
		case v == "-D":
			w, got := next()
			ok = got && cmakeDefine(w.val)
		case strings.HasPrefix(v, "-D"):
			ok = cmakeDefine(v[2:])
		case v == "--preset":
			// a preset of the project's CMakePresets.json, which sets what
			// its CMakeLists.txt could set itself
			w, got := next()
			ok = got && plainToken(w.val)
		case strings.HasPrefix(v, "--preset="):
			ok = plainToken(v[len("--preset="):])
		case v == "--list-presets" || v == "--list-presets=all" || v == "--list-presets=configure" || v == "--list-presets=build" || v == "--list-presets=test":
		case (v == "-j" || v == "--parallel") && (i+1 == len(args) || strings.HasPrefix(args[i+1].val, "-")):
			// no value: the native tool's default parallelism
		case v == "-j" || v == "--parallel" || v == "--target" || v == "-t" || v == "--config":
			w, got := next()
			ok = got && plainToken(w.val)
		case strings.HasPrefix(v, "-j") && numberish(v[2:]), strings.HasPrefix(v, "--parallel=") && numberish(v[11:]):
		case v == "--clean-first" || v == "-v" || v == "--verbose" || v == "-Wdev" || v == "-Wno-dev" || v == "--fresh" || v == "-LA" || v == "-L" || v == "-LH" || v == "-N":
		case v == "--":
			// Arguments for the native build tool: -jN, -k, targets.
			for _, r := range args[i+1:] {
				if !r.static || !(plainToken(r.val) || strings.HasPrefix(r.val, "-j") && numberish(r.val[2:])) {
					ok = false
				}
			}
			i = len(args)
		case !strings.HasPrefix(v, "-"):
			dirs = append(dirs, a)
		default:
			ok = false
		}
	}
	if !ok {
		subcommandTool(x, args)
		return
	}
	x.add(Allow, RuleBuildProject, "cmake configures or builds the project")
	x.inWorkspace()
	x.askPublishTargets("cmake --build", cmakeBuildTargets(args)) // pol7_installs.go
	for _, d := range dirs {
		x.read(d)
	}
	for _, d := range outs {
		x.rewriteTree(d) // treewrites.go: cmake --build . is an in-source build
		x.markBuilt(d)   // buildoutput_off.go: what runs from it next is the build's product
	}
}

// mesonCmd allows setup, configure, compile and test of a build directory.
func mesonCmd(x *cmdCtx, args []word) {
	if len(args) < 2 {
		subcommandTool(x, args)
		return
	}
	sub := args[1].val
	switch sub {
	case "setup", "configure", "compile", "test", "introspect":
	default:
		subcommandTool(x, args)
		return
	}
	var dirs []word
	ok := true
	for i := 2; i < len(args) && ok; i++ {
		a := args[i]
		v := a.val
		switch {
		case !a.static:
			ok = false
		case v == "-C":
			if i+1 >= len(args) {
				ok = false
				break
			}
			i++
			dirs = append(dirs, args[i])
		case (v == "--buildtype" || v == "--backend" || v == "--num-processes") && i+1 < len(args):
			// meson reads --opt value as --opt=value (argparse): the same
			// option, judged as the = form is
			i++
			val := args[i].val
			ok = args[i].static && plainToken(val) && (v != "--backend" || val == "ninja")
		case strings.HasPrefix(v, "-D"):
			k, val, has := strings.Cut(v[2:], "=")
			ok = has && plainToken(k) && plainToken(val) && k != "prefix" && !strings.HasSuffix(k, "dir")
		case strings.HasPrefix(v, "--buildtype=") || strings.HasPrefix(v, "--backend=ninja") || strings.HasPrefix(v, "--num-processes") ||
			v == "--print-errorlogs" || v == "-v" || v == "--verbose" || v == "--wipe" || v == "--reconfigure" || v == "--clean" ||
			strings.HasPrefix(v, "-j") || v == "--list" || v == "--suite" || v == "--no-rebuild" || strings.HasPrefix(v, "--suite="):
			if v == "--suite" {
				i++
			}
		case !strings.HasPrefix(v, "-") && plainToken(strings.ReplaceAll(v, "/", "")):
			dirs = append(dirs, a)
		default:
			ok = false
		}
	}
	if !ok {
		subcommandTool(x, args)
		return
	}
	x.add(Allow, RuleBuildProject, "meson "+sub+" builds or tests the project")
	x.inWorkspace()
	for _, d := range dirs {
		if sub == "test" || sub == "introspect" {
			x.read(d)
		} else {
			x.write(d)
		}
	}
}

// ninjaCmd allows building targets of a build directory.
func ninjaCmd(x *cmdCtx, args []word) {
	ok := true
	var dirs []word
	for i := 1; i < len(args) && ok; i++ {
		a := args[i]
		v := a.val
		switch {
		case !a.static:
			ok = false
		case v == "-C":
			if i+1 >= len(args) {
				ok = false
				break
			}
			i++
			dirs = append(dirs, args[i])
		case v == "-j" || v == "-k" || v == "-l":
			ok = i+1 < len(args) && numberish(args[i+1].val)
			i++
		case v == "-t":
			// a tool that prints the build graph instead of building
			ok = i+1 < len(args) && ninjaReadTools.has(args[i+1].val)
			i++
		case (strings.HasPrefix(v, "-j") || strings.HasPrefix(v, "-k") || strings.HasPrefix(v, "-l")) && numberish(v[2:]), v == "-v", v == "--verbose", v == "-n":
		case !strings.HasPrefix(v, "-") && plainToken(strings.ReplaceAll(v, "/", "")) && !strings.Contains(v, ".."):
		default:
			ok = false
		}
	}
	if !ok {
		subcommandTool(x, args)
		return
	}
	x.add(Allow, RuleBuildProject, "ninja builds the project")
	x.inWorkspace()
	x.askPublishTargets("ninja", ninjaTargets(args)) // pol7_installs.go
	for _, d := range dirs {
		x.write(d)
	}
}

// compilerCmd allows compiling and linking workspace sources: sources and
// include directories are read, -o is written; a plugin, a driver prefix
// (-B), a wrapper, a specs file, a response file or linker pass-through
// asks.
func compilerCmd(x *cmdCtx, args []word) {
	ok := len(args) > 1
	var reads, includes, writes []word // includes: -I and -L directories
	for i := 1; i < len(args) && ok; i++ {
		a := args[i]
		v := a.val
		switch {
		case !a.static:
			ok = false
		case v == "-o":
			if i+1 >= len(args) {
				ok = false
				break
			}
			i++
			writes = append(writes, args[i])
		case v == "-c" || v == "-S" || v == "-E" || v == "-shared" || v == "-static" || v == "-v" || v == "-M" || v == "-MM" || v == "-MD" || v == "-MMD" || v == "-MP":
		case v == "-x" || v == "-MF" || v == "-MT" || v == "-I" || v == "-L" || v == "-include":
			if i+1 >= len(args) {
				ok = false
				break
			}
			i++
			if v == "-MF" {
				writes = append(writes, args[i])
			} else if v == "-I" || v == "-L" {
				includes = append(includes, args[i])
			} else if v != "-x" && v != "-MT" {
				reads = append(reads, args[i])
			}
		case strings.HasPrefix(v, "-I") || strings.HasPrefix(v, "-L"):
			includes = append(includes, word{val: v[2:], static: true})
		case strings.HasPrefix(v, "@"):
			ok = false // a response file holds more options, unseen
		case strings.HasPrefix(v, "-l") && plainToken(v[2:]):
		case strings.HasPrefix(v, "-"):
			ok = cFlag(v) || v == "-rdynamic" || v == "-nostdlib" || v == "-w"
		default:
			reads = append(reads, a)
		}
	}
	if !ok {
		x.add(Ask, RuleBuildOption, args[0].val+": only compiling workspace sources with everyday flags is allowed without asking")
		return
	}
	x.add(Allow, RuleBuildProject, args[0].val+" compiles the project's sources")
	for _, r := range append(reads, includes...) {
		x.read(r)
	}
	for _, w := range writes {
		x.buildOutput(w)
		if !x.compiledFromWorkspace(reads, includes) { // builtrun_off.go
			x.builtOutside(w)
		}
	}
}
