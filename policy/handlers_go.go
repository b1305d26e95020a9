package policy

import (
	"path/filepath"
	"strings"
)

// Go's own tools: go and gofmt, judged by subcommand and flag.

var goBuildCmds = wordSet{words: []string{"build", "test", "vet", "list", "run", "install", "fmt", "fix", "doc"}}

func goCmd(x *cmdCtx, args []word) {
	rest := args[1:]
	if len(rest) > 0 && (rest[0].val == "-C" || strings.HasPrefix(rest[0].val, "-C=")) {
		dir := strings.TrimPrefix(rest[0].val, "-C=")
		if rest[0].val == "-C" && len(rest) > 1 {
			x.read(rest[1])
			rest = rest[2:]
		} else {
			x.readStr(dir)
			rest = rest[1:]
		}
	}
	if len(rest) == 0 {
		x.add(Allow, RuleReadOnly, "prints go usage")
		return
	}
	sub := rest[0].val
	sargs := rest[1:]
	switch {
	case sub == "version" || sub == "help" || sub == "doc" || sub == "-h" || sub == "--help":
		x.add(Allow, RuleReadOnly, "prints go information")
		return
	case sub == "env":
		if hasOpt(sargs, "wu") {
			x.add(Deny, RulePersist, "go env -w writes the person's Go configuration, which runs in later builds")
			return
		}
		x.add(Allow, RuleReadOnly, "prints go environment")
		return
	case sub == "mod":
		if len(sargs) > 0 {
			switch sargs[0].val {
			case "graph", "why", "verify", "edit", "init", "tidy", "download", "vendor":
				x.add(Allow, RuleBuildProject, "go mod "+sargs[0].val+" maintains the project's modules (downloads run no code)")
				x.inWorkspace()
				for i, a := range sargs[1:] {
					if a.val == "-o" && i+2 < len(sargs) {
						x.write(word{val: sargs[i+2].val + "/glob-match", static: sargs[i+2].static})
					}
					if v, ok := strings.CutPrefix(a.val, "-o="); ok {
						x.writeStr(v + "/glob-match")
					}
					if strings.HasPrefix(a.val, "-replace") && (strings.Contains(a.val, "=/") || strings.Contains(a.val, "=.") || strings.Contains(a.val, "=~")) {
						x.add(Ask, RuleBuildOption, "go mod edit -replace points a module at a directory")
					}
				}
				return
			}
		}
		x.add(Ask, RuleUnknownCommand, "a go mod command the policy does not know")
		return
	case sub == "tool" && len(sargs) > 0 && sargs[0].val == "pprof" && pprofReport(x, sargs[1:]): // pprof.go
		return
	case sub == "tool" && len(sargs) > 0 && sargs[0].val == "cover":
		x.add(Allow, RuleBuildProject, "go tool cover reports coverage")
		x.inWorkspace()
		for _, a := range sargs[1:] {
			if v, ok := strings.CutPrefix(a.val, "-o="); ok {
				x.writeStr(v)
			}
			if strings.HasPrefix(a.val, "-html") && !hasOpt(sargs, "", "-o") {
				x.add(Ask, RuleBuildOption, "go tool cover -html opens a browser")
			}
		}
		for i, a := range sargs {
			if a.val == "-o" && i+1 < len(sargs) {
				x.write(sargs[i+1])
			}
		}
		return
	case sub == "generate":
		// go generate runs the project's //go:generate directives: the
		// project's own code, like its build.
		x.ranBuildFiles("go generate", func(b string) bool { return strings.HasSuffix(b, ".go") }, goGenerateCommands)
		x.projectCode("go generate runs the project's own generators", RuleBuildOption, "go generate runs commands the request does not show, and the sandbox is off") // projectrunners_off.go
		x.inWorkspace()
		goFlags(x, sargs)
		return
	case sub == "work" && goWorkSync(x, sargs): // projectrunners_off.go
		return
	case sub == "get" || sub == "install" || sub == "work" || sub == "tool" || sub == "bug" || sub == "telemetry":
		if sub == "install" || sub == "get" {
			x.add(Ask, RulePkgInstall, "go "+sub+" downloads and installs modules")
		} else {
			x.add(Ask, RuleBuildOption, "go "+sub+" runs commands the request does not show")
		}
		goFlags(x, sargs)
		return
	case sub == "clean":
		x.inWorkspace()
		if hasOpt(sargs, "", "-cache", "-modcache", "-fuzzcache", "-i") {
			x.add(Ask, RuleBuildOption, "go clean of shared caches outside the workspace")
			return
		}
		x.add(Allow, RuleBuildProject, "removes build outputs")
		return
	case !goBuildCmds.has(sub):
		x.add(Ask, RuleUnknownCommand, "go "+sub+" is not a go command the policy knows")
		return
	}
	x.add(Allow, RuleBuildProject, "go "+sub+" builds or tests the project")
	x.inWorkspace()
	ops := goFlags(x, sargs)
	if sub == "run" || sub == "install" {
		for _, o := range ops {
			if strings.Contains(o.val, "@") {
				if sub == "run" {
					x.add(Deny, RulePkgRemoteExec, "go run "+o.val+" downloads and runs remote code")
				}
				return
			}
			if !strings.HasPrefix(o.val, ".") && !strings.HasPrefix(o.val, "/") && !strings.HasSuffix(o.val, ".go") && strings.Contains(strings.SplitN(o.val, "/", 2)[0], ".") {
				x.add(Ask, RulePkgRemoteExec, "go run of a package outside the project")
			}
			if sub == "run" {
				break // the rest are the program's arguments
			}
		}
	}
	for _, o := range ops {
		if strings.HasPrefix(o.val, "/") || strings.HasPrefix(o.val, "~") || strings.HasPrefix(o.val, "..") {
			x.read(o)
		}
	}
}

// goFlags judges go build flags and returns the operands.
func goFlags(x *cmdCtx, sargs []word) []word {
	var ops []word
	for i := 0; i < len(sargs); i++ {
		a := sargs[i].val
		if !strings.HasPrefix(a, "-") || a == "-args" || a == "--" {
			ops = append(ops, sargs[i])
			continue
		}
		name, val, has := strings.Cut(strings.TrimLeft(a, "-"), "=")
		name = strings.TrimPrefix(name, "test.")
		takesVal := contains([]string{"o", "exec", "toolexec", "vettool", "coverprofile", "cpuprofile", "memprofile",
			"blockprofile", "mutexprofile", "trace", "outputdir", "gocoverdir", "modfile", "overlay", "pgo", "ldflags", "gcflags",
			"asmflags", "gccgoflags", "run", "bench", "count", "timeout", "cpu", "p", "tags", "mod", "covermode",
			"coverpkg", "benchtime", "parallel", "skip", "fuzz", "fuzztime", "fuzzminimizetime", "list", "shuffle",
			"compiler", "buildmode", "installsuffix", "pkgdir", "C", "f",
			"memprofilerate", "blockprofilerate", "mutexprofilefraction", "reuse"}, name)
		if takesVal && !has && i+1 < len(sargs) {
			val = sargs[i+1].val
			i++
		}
		switch name {
		case "vettool":
			if !x.vettool(val, vettoolStatic(sargs, i, has)) { // vettool.go: -vettool=$(which shadow)
				x.add(Deny, RuleBuildExec, "go -"+name+" runs an arbitrary program")
			}
		case "exec", "toolexec":
			x.add(Deny, RuleBuildExec, "go -"+name+" runs an arbitrary program")
		case "o", "coverprofile", "cpuprofile", "memprofile", "blockprofile", "mutexprofile", "trace":
			x.buildOutput(word{val: val, static: true})
			if name == "o" {
				defer x.goBuiltFrom(word{val: val, static: true}, &ops) // builtrun_off.go, once every operand is known
			}
		case "outputdir", "pkgdir", "gocoverdir":
			x.writeStr(filepath.Join(val, "glob-match"))
		case "modfile", "overlay", "pgo":
			if val != "auto" && val != "off" {
				x.readStr(val)
			}
		case "ldflags", "gcflags", "asmflags", "gccgoflags":
			if strings.Contains(val, "extld") || strings.Contains(val, "-plugin") || strings.Contains(val, "linkshared") {
				x.add(Deny, RuleBuildExec, "an external linker or compiler plugin runs an arbitrary program")
			}
		case "compiler":
			x.add(Ask, RuleBuildOption, "an alternative compiler")
		}
	}
	return ops
}

func gofmtCmd(x *cmdCtx, args []word) {
	write := hasOpt(args[1:], "w", "-w")
	if write {
		x.add(Allow, RuleFileWrite, "formats files in place")
	} else {
		x.add(Allow, RuleReadOnly, "checks formatting")
	}
	for _, w := range operands(args[1:], "r", []string{"srcdir", "local"}) {
		if write {
			x.rewriteTree(w) // treewrites.go: gofmt -w . rewrites files under the root
		} else {
			x.read(w)
		}
	}
}
