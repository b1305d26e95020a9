package policy

import "strings"

// More everyday forms of the JVM, C/C++ and .NET toolchains (issue 32):
// running the jar or classes the project built (java -jar target/app.jar),
// the shared libraries of a program (ldd), counting lines (cloc), a
// project's Maven settings file (mvn -s settings.xml), a CMake preset and
// Entity Framework's migration generator. Running the project's own build
// output is its own code: allowed inside the sandbox, asked without it.

func addMoreEcosystemHandlers(handlers map[string]handler) {
	handlers["java"] = javaCmd(handlers["java"])
	handlers["ldd"] = lddCmd
	handlers["cloc"] = clocCmd
	handlers["srb"] = srbCmd
	handlers["bundler-audit"] = bundlerAudit
	handlers["bundle-audit"] = bundlerAudit
}

// srbCmd: Sorbet's type check (srb tc) reads the project; its other
// commands (init, rbi) generate files and fetch gems' sources, and ask.
func srbCmd(x *cmdCtx, args []word) {
	if len(args) >= 2 && args[1].static && args[1].val == "tc" {
		projectTool(x, args)
		return
	}
	x.add(Ask, RuleBuildOption, "srb: only its type check (srb tc) is allowed without asking")
}

// bundlerAudit checks Gemfile.lock against the advisory database
// (bundle audit, bundler-audit check). --update fetches that database
// into the home directory first: inside the sandbox only.
func bundlerAudit(x *cmdCtx, args []word) {
	rest := args[1:]
	if len(rest) > 0 && rest[0].static && rest[0].val == "check" {
		rest = rest[1:]
	}
	update := false
	for _, a := range rest {
		switch {
		case !a.static:
			x.add(Ask, RuleShellDynamicArg, "an argument comes from an expansion")
			return
		case a.val == "--update" || a.val == "-u":
			update = true
		case a.val == "--quiet" || a.val == "-q" || a.val == "--verbose" || a.val == "-v" || a.val == "--format" || a.val == "json" || a.val == "text":
		default:
			x.add(Ask, RuleBuildOption, args[0].val+" "+quoteShort(a.val)+" is an option the policy does not know")
			return
		}
	}
	x.add(Allow, RuleReadOnly, "checks the project's locked gems against the advisory database")
	x.readStr("Gemfile.lock")
	if update {
		x.sandboxedCode("updates the advisory database", RuleNetTool, args[0].val+" --update downloads the advisory database: with the sandbox off that asks")
	}
}

// javaCmd judges `java [options] -jar JAR [args]`, `java [options] -cp CP
// MAIN [args]` and `java [options] File.java [args]` where the jar, class
// path and source file are the workspace's: the project's own program.
// An option that loads code from elsewhere (-javaagent, -agentpath,
// @argfiles, --module-path) or any option not listed leaves the line to
// the earlier handler.
func javaCmd(prev handler) handler {
	if prev == nil {
		prev = func(x *cmdCtx, args []word) {
			x.add(Ask, RuleUnknownCommand, args[0].val+" runs a program in a way the policy does not judge")
		}
	}
	return func(x *cmdCtx, args []word) {
		var files []word
		run := ""
		for i := 1; i < len(args) && run == ""; i++ {
			a := args[i]
			v := a.val
			switch {
			case !a.static:
				prev(x, args)
				return
			case v == "-jar":
				if i+1 >= len(args) || !args[i+1].static {
					prev(x, args)
					return
				}
				files = append(files, args[i+1])
				run = args[i+1].val
			case v == "-cp" || v == "-classpath" || v == "--class-path":
				if i+1 >= len(args) || !args[i+1].static {
					prev(x, args)
					return
				}
				i++
				for _, e := range strings.Split(args[i].val, ":") {
					if e == "" || strings.ContainsAny(strings.TrimSuffix(e, "/*"), "*?[{~$") {
						prev(x, args)
						return
					}
					files = append(files, word{val: strings.TrimSuffix(e, "/*"), static: true})
				}
			case strings.HasPrefix(v, "-D"):
				k, val, _ := strings.Cut(v[2:], "=")
				if !plainToken(k) || !(val == "" || plainToken(val)) {
					prev(x, args)
					return
				}
			case strings.HasPrefix(v, "-Xmx") || strings.HasPrefix(v, "-Xms") || strings.HasPrefix(v, "-Xss"),
				v == "-ea" || v == "-da" || v == "-enableassertions" || v == "-server" || v == "-XX:+UseG1GC" ||
					v == "-XX:+HeapDumpOnOutOfMemoryError" || v == "--enable-preview" || v == "-Xshare:off":
			case strings.HasPrefix(v, "-"):
				prev(x, args)
				return
			default:
				// the main class (with -cp) or a source file
				if strings.HasSuffix(v, ".java") {
					files = append(files, a)
				} else if len(files) == 0 || !plainToken(strings.ReplaceAll(v, "$", "")) {
					prev(x, args)
					return
				}
				run = v
			}
		}
		if run == "" || len(files) == 0 {
			prev(x, args)
			return
		}
		for _, f := range files {
			// projectbuilds_off.go: a jar of the project's build output runs off too.
			if !x.runFileOff(f, "java runs "+f.val, RulePathProgram, "java runs "+f.val+", the project's own program, and the sandbox is off", x.javaJarOff(f)) {
				return
			}
		}
	}
}

// lddCmd lists a program's shared libraries. glibc's ldd may run the
// program to do so (its manual says never to use it on an untrusted
// one): a workspace program is the project's own code, a system one is
// read.
func lddCmd(x *cmdCtx, args []word) {
	x.add(Allow, RuleReadOnly, "lists a program's shared libraries")
	n := 0
	for _, a := range args[1:] {
		if !a.static {
			x.add(Ask, RuleShellDynamicArg, "an argument comes from an expansion")
			continue
		}
		switch a.val {
		case "-v", "--verbose", "-u", "--unused", "-d", "--data-relocs", "-r", "--function-relocs", "--version", "--help", "--":
			continue
		}
		if strings.HasPrefix(a.val, "-") {
			x.add(Ask, RuleBuildOption, "an ldd option the policy does not know")
			continue
		}
		n++
		inWS := true
		for _, p := range x.resolve(a) {
			inWS = inWS && within(p, x.c.ws)
		}
		if inWS {
			x.runFileOff(a, "ldd runs "+a.val+" to find its libraries", RulePathProgram, "ldd may run "+a.val+", a program of the workspace, and the sandbox is off", x.builtProgramOff(x.resolve(a)))
		} else {
			x.read(a)
		}
	}
	if n == 0 && len(args) > 1 && args[len(args)-1].val != "--version" && args[len(args)-1].val != "--help" {
		x.add(Ask, RuleBuildOption, "ldd with no program")
	}
}

// clocValued are cloc's options whose value only filters or formats what
// it counts; clocFlags take none. Anything else (--out, --report-file,
// --sql, --extract-with, --read-lang-def, …) asks.
var clocValued = wordSet{words: []string{"--exclude-dir", "--exclude-ext", "--include-lang", "--exclude-lang", "--include-ext",
	"--not-match-f", "--match-f", "--not-match-d", "--match-d", "--vcs", "--timeout", "--max-file-size", "--fullpath"}}

var clocFlags = wordSet{words: []string{"--by-file", "--by-file-by-lang", "--json", "--yaml", "--csv", "--md", "--xml",
	"--quiet", "-q", "--git", "--hide-rate", "--skip-uniqueness", "--sum-one", "--diff", "--by-percent", "--no-autogen",
	"--show-lang", "--show-ext", "--follow-links", "--version", "--help", "-v", "--verbose", "--autoconf", "--strip-str-comments"}}

func clocCmd(x *cmdCtx, args []word) {
	x.add(Allow, RuleReadOnly, "counts lines of code")
	ops := 0
	for _, a := range args[1:] {
		if !a.static {
			x.add(Ask, RuleShellDynamicArg, "an argument comes from an expansion")
			continue
		}
		k, v, has := strings.Cut(a.val, "=")
		switch {
		case clocFlags.has(a.val):
		case has && clocValued.has(k) && (k != "--vcs" || v == "git"):
		case strings.HasPrefix(a.val, "-"):
			x.add(Ask, RuleBuildOption, "cloc "+quoteShort(a.val)+" is an option the policy does not know")
		default:
			ops++
			x.read(a)
		}
	}
	if ops == 0 {
		x.readStr(".")
	}
}

// projectSettings judges a build tool's settings file named on its
// command line (mvn -s settings.xml): it can name repositories, mirrors
// and proxies to fetch plugins from, as the project's pom can, so a file
// of the workspace is the project's own build configuration — allowed
// inside the sandbox, asked without it — and any other file, or one this
// line writes, asks.
func (x *cmdCtx) projectSettings(tool string, f word) {
	ps := x.resolve(f)
	ok := ps != nil && !f.pattern
	for _, p := range ps {
		r := foldPath(rel(p, x.c.ws))
		if !within(p, x.c.ws) || r == ".git" || strings.HasPrefix(r, ".git/") {
			ok = false
		}
		if _, wrote := x.c.written[p]; wrote {
			ok = false
		}
	}
	if !ok {
		x.add(Ask, RuleBuildOption, tool+" reads its settings (repositories, mirrors, proxies) from "+quoteShort(f.val)+", not a file of the workspace")
		return
	}
	x.read(f)
	x.sandboxedCode(tool+" reads the project's own settings file "+quoteShort(f.val), RuleBuildOption,
		tool+" reads its settings (repositories, mirrors, proxies) from "+quoteShort(f.val)+": with the sandbox off that asks")
}

// dotnetEF allows Entity Framework's generators that write only the
// project's sources: `dotnet ef migrations add NAME` (a migration class in
// the project), `migrations list`, `dbcontext info|list`. They build and
// start the project's own code, as dotnet test does. Updating or dropping
// a database, removing a migration (which checks the database) and
// scripting ask through the earlier handler.
func dotnetEF(x *cmdCtx, args []word) bool {
	if len(args) < 4 || args[1].val != "ef" {
		return false
	}
	verb := args[2].val + " " + args[3].val
	rest := args[4:]
	switch verb {
	case "migrations add":
		if len(rest) == 0 || !rest[0].static || !plainToken(rest[0].val) || strings.HasPrefix(rest[0].val, "-") {
			return false
		}
		rest = rest[1:]
	case "migrations list", "dbcontext info", "dbcontext list":
	default:
		return false
	}
	var reads, writes []word
	for i := 0; i < len(rest); i++ {
		a := rest[i]
		v := a.val
		switch {
		case !a.static:
			return false
		case v == "--no-build" || v == "-v" || v == "--verbose" || v == "--no-color" || v == "--prefix-output" || v == "--json" || v == "--no-connect":
		case (v == "-c" || v == "--context" || v == "--configuration" || v == "--framework" || v == "--namespace" || v == "-n") && i+1 < len(rest):
			if !rest[i+1].static || !plainToken(rest[i+1].val) {
				return false
			}
			i++
		case (v == "-o" || v == "--output-dir") && i+1 < len(rest):
			writes = append(writes, word{val: rest[i+1].val + "/glob-match", static: rest[i+1].static})
			i++
		case (v == "-p" || v == "--project" || v == "-s" || v == "--startup-project") && i+1 < len(rest):
			reads = append(reads, rest[i+1])
			i++
		default:
			return false
		}
	}
	x.add(Allow, RuleBuildProject, "dotnet ef "+verb+" builds the project and writes its migration sources")
	x.inWorkspace()
	for _, r := range reads {
		x.read(r)
	}
	for _, w := range writes {
		x.write(w)
	}
	return true
}
