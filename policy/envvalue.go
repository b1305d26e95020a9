package policy

import (
	"strings"
)

// Environment variables judged by their value. A variable that can change
// which program or code runs (NODE_OPTIONS, RUSTFLAGS, GOFLAGS, MAVEN_OPTS,
// CC, …) is denied by its name in envVarFinding; but most of what agents
// put there is memory limits, warning levels, test flags and compiler
// names. envValueTable holds, per variable, a judge of its value: the value
// is split into flags the way the tool splits it, and it is everyday only
// when every flag is one the judge knows to load no code and name no
// program (no --require, -javaagent, -toolexec, linker, wrapper or path).
// Anything else falls back to the name's judgment.

// RuleEnvValue allows a variable whose value the policy read and found
// everyday.
const RuleEnvValue = "env.value"

// envValueJudge reports whether value is an everyday value of its variable.
type envValueJudge func(value string) bool

var envValueTable = lazy[map[string]envValueJudge]{build: func() map[string]envValueJudge {
	java := flagsJudge(javaOption)
	cflags := flagsJudge(cFlag)
	m := map[string]envValueJudge{
		"GOWORK":            func(v string) bool { return v == "off" },
		"NODE_OPTIONS":      flagsJudge(nodeOption),
		"RUSTFLAGS":         rustFlags,
		"RUSTDOCFLAGS":      rustFlags,
		"GOFLAGS":           flagsJudge(goFlag),
		"MAVEN_OPTS":        java,
		"GRADLE_OPTS":       java,
		"JAVA_OPTS":         java,
		"JAVA_TOOL_OPTIONS": java,
		"_JAVA_OPTIONS":     java,
		"JDK_JAVA_OPTIONS":  java,
		"SBT_OPTS":          java,
		"CFLAGS":            cflags,
		"CXXFLAGS":          cflags,
		"CPPFLAGS":          cflags,
		"MAKEFLAGS":         flagsJudge(makeFlag),
		"PYTEST_ADDOPTS":    flagsJudge(pytestOption),
		"PYTHONWARNINGS":    pythonWarnings,
		"PYTHONBREAKPOINT":  func(v string) bool { return v == "0" },
		"GOTOOLCHAIN":       func(v string) bool { return v == "local" },
		"BROWSER":           func(v string) bool { return v == "none" },
		"JAVA_HOME":         systemJDK,
	}
	for _, n := range []string{"CC", "CXX", "CPP", "LD", "AR", "AS", "FC", "HOSTCC", "HOSTCXX"} {
		m[n] = compilerName
	}
	for _, n := range []string{"PORT", "RAILS_ENV", "RACK_ENV", "APP_ENV", "MIX_ENV", "FLASK_ENV", "FLASK_DEBUG",
		"ASPNETCORE_ENVIRONMENT", "DOTNET_ENVIRONMENT", "SPRING_PROFILES_ACTIVE", "ENVIRONMENT", "ENV_NAME",
		"HEADLESS", "COVERAGE", "JEST_WORKERS", "PYTEST_XDIST_AUTO_NUM_WORKERS", "PYTHONOPTIMIZE", "PYTHONDEVMODE",
		"PYTHONTRACEMALLOC", "PYTHONMALLOC", "PIP_NO_CACHE_DIR", "PIP_DISABLE_PIP_VERSION_CHECK",
		"PIP_NO_INPUT", "POETRY_VIRTUALENVS_IN_PROJECT", "UV_NO_CACHE", "NPM_CONFIG_LOGLEVEL",
		"NPM_CONFIG_FUND", "NPM_CONFIG_AUDIT", "NPM_CONFIG_UPDATE_NOTIFIER", "CARGO_NET_OFFLINE",
		"DOTNET_NOLOGO", "DOTNET_SKIP_FIRST_TIME_EXPERIENCE", "BUNDLE_FROZEN", "BUNDLE_JOBS", "BUNDLE_RETRY",
		"RUST_TEST_NOCAPTURE", "CTEST_OUTPUT_ON_FAILURE", "CTEST_PARALLEL_LEVEL", "CMAKE_BUILD_PARALLEL_LEVEL",
		"CMAKE_BUILD_TYPE", "CMAKE_GENERATOR"} {
		m[n] = plainToken
	}
	everydayEnv(m)    // everyday.go: TF_LOG, XDEBUG_MODE, STACK_YAML
	toolEnv(m)        // envtools.go: GOPROXY=off, DENO_DIR, DJANGO_SETTINGS_MODULE
	buildEnvValues(m) // buildenv.go: ASAN_OPTIONS, GOPRIVATE
	return m
}}

// envVarWordFinding judges NAME=value where the value is a decoded word:
// by the value when it is static and everyday for its variable, else by
// the name (envVarFinding). A value with an expansion in it is never read
// as everyday: "--enable-source-maps $X" may become "--require …".
func envVarWordFinding(name string, value word, standalone bool) finding {
	if value.static {
		if f, ok := envValueFinding(name, value.val); ok {
			return f
		}
	}
	return envVarFinding(name, value.val, standalone)
}

// envValueFinding judges NAME=value by its value when the variable has a
// judge and the value is everyday; ok is false otherwise, and the name's
// judgment stands.
func envValueFinding(name, value string) (finding, bool) {
	if value == "" {
		return finding{}, false
	}
	up := strings.ToUpper(name)
	judge, known := envValueTable.get()[up]
	if !known && strings.HasPrefix(up, "CARGO_PROFILE_") {
		known, judge = cargoProfileVar(up), plainToken
	}
	if !known || !judge(value) {
		return finding{}, false
	}
	return finding{Allow, RuleEnvValue, "sets " + name + " to " + quoteShort(value) + ", a value that loads no code and names no program"}, true
}

// cargoProfileVar: CARGO_PROFILE_<NAME>_<KEY> for keys that only tune
// code generation (never the linker, a runner or a rustc wrapper).
func cargoProfileVar(up string) bool {
	for _, k := range []string{"_DEBUG", "_OPT_LEVEL", "_LTO", "_CODEGEN_UNITS", "_INCREMENTAL", "_STRIP",
		"_DEBUG_ASSERTIONS", "_OVERFLOW_CHECKS", "_PANIC", "_SPLIT_DEBUGINFO"} {
		if strings.HasSuffix(up, k) {
			return true
		}
	}
	return false
}

// plainToken is a value that is one word of letters, digits and ._-:,
// (an environment name, a port, a count, a boolean).
func plainToken(v string) bool {
	if len(v) > 64 {
		return false
	}
	for _, r := range v {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("._-:,", r)) {
			return false
		}
	}
	return true
}

// flagsJudge splits a value on blanks (as node, the JVM launcher, go and
// make split these variables; none of them honours quotes the same way,
// so a quote is not everyday) and asks each flag of it.
func flagsJudge(ok func(flag string) bool) envValueJudge {
	return func(v string) bool {
		if strings.ContainsAny(v, "'\"\\$`;|&<>(){}\n") {
			return false
		}
		fs := strings.Fields(v)
		if len(fs) == 0 {
			return false
		}
		for _, f := range fs {
			if !ok(f) {
				return false
			}
		}
		return true
	}
}

// numberish: digits with an optional unit (4096, 1g, 512m).
func numberish(v string) bool {
	v = strings.TrimRight(v, "kKmMgGtT")
	if v == "" {
		return false
	}
	for _, r := range v {
		if r < '0' || r > '9' {
			return false
		}
	}
	return true
}

// nodeOption: heap and stack sizes, warnings, source maps. Never --require,
// -r, --import, --loader, --experimental-loader, --inspect (a debugger
// port), --env-file or anything else.
func nodeOption(f string) bool {
	name, val, hasVal := strings.Cut(f, "=")
	switch name {
	case "--max-old-space-size", "--max-semi-space-size", "--stack-size", "--max-http-header-size", "--stack-trace-limit":
		return hasVal && numberish(val)
	case "--enable-source-maps", "--no-warnings", "--no-deprecation", "--trace-warnings", "--trace-deprecation",
		"--throw-deprecation", "--trace-uncaught", "--experimental-vm-modules", "--openssl-legacy-provider",
		"--no-experimental-fetch", "--expose-gc", "--preserve-symlinks", "--trace-exit", "--pending-deprecation",
		"--experimental-specifier-resolution", "--use-openssl-ca", "--use-bundled-ca", "--no-network-family-autoselection":
		return !hasVal || plainToken(val)
	case "--unhandled-rejections", "--dns-result-order", "--tls-min-v1.2", "--title":
		return hasVal && plainToken(val)
	}
	return false
}

// rustFlags: lint levels, optimisation and debug settings, cfgs. Never a
// linker, link arguments, a plugin, -Z flags or a search path.
func rustFlags(v string) bool {
	if strings.ContainsAny(v, "'\"\\$`;|&<>(){}\n") {
		return false
	}
	fs := strings.Fields(v)
	if len(fs) == 0 {
		return false
	}
	for i := 0; i < len(fs); i++ {
		f := fs[i]
		arg := ""
		switch {
		case f == "-D" || f == "-W" || f == "-A" || f == "-F" || f == "--cap-lints" || f == "-C" || f == "--cfg" || f == "--edition":
			if i+1 >= len(fs) {
				return false
			}
			i++
			arg = fs[i]
		case len(f) > 2 && (strings.HasPrefix(f, "-D") || strings.HasPrefix(f, "-W") || strings.HasPrefix(f, "-A") || strings.HasPrefix(f, "-F") || strings.HasPrefix(f, "-C")):
			arg = f[2:]
			f = f[:2]
		case strings.HasPrefix(f, "--cfg=") || strings.HasPrefix(f, "--cap-lints=") || strings.HasPrefix(f, "--edition="):
			f, arg, _ = strings.Cut(f, "=")
		default:
			return false
		}
		if f == "-C" {
			key, val, _ := strings.Cut(arg, "=")
			switch key {
			case "opt-level", "debuginfo", "target-cpu", "codegen-units", "panic", "overflow-checks", "debug-assertions",
				"force-frame-pointers", "lto", "embed-bitcode", "strip", "split-debuginfo", "instrument-coverage", "relocation-model", "target-feature":
				if !plainToken(strings.NewReplacer("+", "", "\"", "").Replace(val)) {
					return false
				}
			default:
				return false
			}
			continue
		}
		if !plainToken(arg) {
			return false
		}
	}
	return true
}

// goFlag: flags of go build/test that load no code. Never -toolexec,
// -exec, -overlay, -modfile, -pgo, -ldflags, -gcflags or -asmflags.
func goFlag(f string) bool {
	name, val, hasVal := strings.Cut(f, "=")
	switch name {
	case "-count", "-p", "-parallel", "-timeout", "-cpu", "-benchtime", "-shuffle":
		return hasVal && plainToken(val)
	case "-mod":
		return val == "mod" || val == "vendor" || val == "readonly"
	case "-tags":
		return hasVal && plainToken(val)
	case "-buildvcs":
		return !hasVal || val == "false" || val == "true" || val == "auto"
	case "-race", "-v", "-trimpath", "-short", "-failfast", "-cover", "-x", "-a", "-n", "-modcacherw", "-json", "-benchmem":
		return !hasVal || val == "true" || val == "false"
	case "-covermode":
		return val == "set" || val == "count" || val == "atomic"
	}
	return false
}

// javaOption: heap, stack and GC settings and plain system properties.
// Never -javaagent, -agentlib, -agentpath, -Xbootclasspath, -cp, a
// -XX:On… hook (OnError and OnOutOfMemoryError run a command) or a
// property that names a class, a path or a host.
func javaOption(f string) bool {
	switch {
	case strings.HasPrefix(f, "-Xmx"), strings.HasPrefix(f, "-Xms"), strings.HasPrefix(f, "-Xss"), strings.HasPrefix(f, "-Xmn"):
		return numberish(f[4:])
	case f == "-ea" || f == "-da" || f == "-esa" || f == "-server" || f == "-Xshare:off" || f == "-Xshare:auto":
		return true
	case strings.HasPrefix(f, "-XX:"):
		opt := f[4:]
		if strings.HasPrefix(opt, "+") || strings.HasPrefix(opt, "-") {
			n := opt[1:]
			return plainToken(n) && !strings.HasPrefix(n, "On") && !strings.Contains(n, "Path") && !strings.Contains(n, "File")
		}
		n, v, ok := strings.Cut(opt, "=")
		return ok && plainToken(n) && !strings.HasPrefix(n, "On") && !strings.Contains(n, "Path") && !strings.Contains(n, "File") && numberish(strings.TrimSuffix(v, "%"))
	case strings.HasPrefix(f, "-D"):
		k, v, _ := strings.Cut(f[2:], "=")
		return javaPlainProperty(k) && plainToken(v)
	case strings.HasPrefix(f, "--add-opens=") || strings.HasPrefix(f, "--add-exports="):
		_, v, _ := strings.Cut(f, "=")
		return plainToken(strings.NewReplacer("/", "", "=", "").Replace(v))
	}
	return false
}

// javaPlainProperty: system properties that only set an encoding, a
// locale, a time zone or a build tool's switch.
func javaPlainProperty(k string) bool {
	switch k {
	case "file.encoding", "sun.jnu.encoding", "user.timezone", "user.language", "user.country", "java.awt.headless",
		"java.net.preferIPv4Stack", "java.net.preferIPv6Addresses", "https.protocols", "jdk.tls.client.protocols",
		"skipTests", "maven.test.skip", "maven.javadoc.skip", "maven.source.skip", "jacoco.skip", "checkstyle.skip",
		"spotbugs.skip", "pmd.skip", "style.color", "org.gradle.daemon", "org.gradle.parallel", "org.gradle.caching",
		"org.gradle.console", "org.gradle.workers.max", "org.slf4j.simpleLogger.defaultLogLevel", "surefire.useFile",
		"trimStackTrace", "junit.jupiter.execution.parallel.enabled", "kotlin.compiler.execution.strategy", "kotlin.daemon.enabled":
		return true
	}
	return false
}

// cFlag: optimisation, debug, warnings, standards, sanitizers, defines and
// include directories. Never -fplugin, -B (where the driver finds its
// programs), -wrapper, -specs or -Wl,/-Wa,/-Wp, pass-through.
func cFlag(f string) bool {
	switch {
	case strings.HasPrefix(f, "-Wl,") || strings.HasPrefix(f, "-Wa,") || strings.HasPrefix(f, "-Wp,"):
		return false
	case strings.HasPrefix(f, "-fplugin"), strings.HasPrefix(f, "-B"), strings.HasPrefix(f, "-specs"), f == "-wrapper",
		strings.HasPrefix(f, "-fuse-ld=") && strings.Contains(f, "/"), strings.HasPrefix(f, "-fprofile-use=/"), strings.HasPrefix(f, "@"):
		return false
	case strings.HasPrefix(f, "-O"), strings.HasPrefix(f, "-g"), strings.HasPrefix(f, "-W"), strings.HasPrefix(f, "-std="),
		strings.HasPrefix(f, "-f"), strings.HasPrefix(f, "-m"), strings.HasPrefix(f, "-D"), strings.HasPrefix(f, "-U"):
		return !strings.ContainsAny(f, "/")
	case strings.HasPrefix(f, "-I"):
		return !strings.HasPrefix(f[2:], "/") && !strings.Contains(f, "..")
	case f == "-pthread" || f == "-pedantic" || f == "-pedantic-errors" || f == "-ansi" || f == "-pipe" || f == "-DNDEBUG" || f == "-Werror":
		return true
	}
	return false
}

// makeFlag: parallelism, keep-going, silence and output sync. Never
// --eval, -f, -C, -I or a variable assignment.
func makeFlag(f string) bool {
	switch {
	case f == "-k" || f == "-s" || f == "--silent" || f == "--keep-going" || f == "--no-print-directory" || f == "-O" || f == "-w":
		return true
	case strings.HasPrefix(f, "-j"):
		return f == "-j" || numberish(f[2:])
	case strings.HasPrefix(f, "--jobs="), strings.HasPrefix(f, "--load-average="):
		_, v, _ := strings.Cut(f, "=")
		return numberish(v)
	case strings.HasPrefix(f, "-l"):
		return numberish(f[2:])
	case strings.HasPrefix(f, "--output-sync="), strings.HasPrefix(f, "-O"):
		return plainToken(strings.TrimPrefix(strings.TrimPrefix(f, "--output-sync="), "-O"))
	}
	return false
}

// pytestOption: verbosity, tracebacks, failing fast, reruns of failures.
// Never -p (loads a plugin), -c, --rootdir, --confcutdir or --basetemp.
func pytestOption(f string) bool {
	name, val, hasVal := strings.Cut(f, "=")
	switch name {
	case "-x", "-q", "-qq", "-v", "-vv", "-vvv", "-s", "-l", "--lf", "--ff", "--nf", "--sw", "--exitfirst",
		"--last-failed", "--failed-first", "--no-header", "--no-summary", "--strict-markers", "--showlocals",
		"-ra", "-rA", "-rf", "-rs", "-rx", "--disable-warnings", "--durations", "--color", "--tb", "--maxfail", "--import-mode":
		return !hasVal || plainToken(val)
	}
	return false
}

// pythonWarnings: action[:message[:category[:module[:line]]]] filters whose
// category is one of Python's own (a dotted category is imported).
func pythonWarnings(v string) bool {
	for _, filt := range strings.Split(v, ",") {
		parts := strings.Split(filt, ":")
		switch parts[0] {
		case "default", "error", "ignore", "always", "module", "once", "d", "e", "i", "a", "m", "o":
		default:
			return false
		}
		if len(parts) > 2 && parts[2] != "" && (strings.Contains(parts[2], ".") || !strings.HasSuffix(parts[2], "Warning")) {
			return false
		}
		for _, p := range parts[1:] {
			if strings.ContainsAny(p, "/$`'\"") {
				return false
			}
		}
	}
	return true
}

// compilerName: a compiler, linker or archiver found on PATH by its plain
// name (no path: a path may be a program the coder wrote).
func compilerName(v string) bool {
	base := strings.TrimRight(v, "0123456789.-")
	switch base {
	case "gcc", "g++", "cc", "c++", "clang", "clang++", "clang-cl", "gfortran", "tcc", "icx", "icpx",
		"ld", "ld.lld", "ld.gold", "ld.bfd", "lld", "ar", "llvm-ar", "gcc-ar", "as", "llvm-as", "cpp":
		return v != "" && !strings.ContainsRune(v, '/')
	}
	return false
}

// systemJDK: a JDK under the system's JVM directories, which the coder
// cannot write.
func systemJDK(v string) bool {
	if strings.Contains(v, "..") || strings.ContainsAny(v, "$`'\" ") {
		return false
	}
	for _, d := range []string{"/usr/lib/jvm/", "/usr/java/", "/Library/Java/JavaVirtualMachines/", "/opt/homebrew/opt/openjdk"} {
		if strings.HasPrefix(v, d) {
			return true
		}
	}
	return false
}
