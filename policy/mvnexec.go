package policy

import "strings"

// Maven's sub-tools (issue 32, polcorp7 everyday/java):
//
//   - `mvn exec:java -Dexec.mainClass=C -Dexec.args=…` runs a main class
//     of the project (or of its declared dependencies) in Maven's own JVM:
//     the project's code, as `mvn spring-boot:run` is, allowed inside the
//     sandbox, off and in place (projectrunners_off.go). Only the exec:java properties that pick
//     the class, its arguments and its classpath scope are read; exec:exec
//     and exec.executable (which run any program) are not this form.
//   - `mvn help:effective-pom -Doutput=FILE` prints the pom Maven computes,
//     into FILE: a read of the project and a write of FILE, judged as the
//     write it is (a workspace path, or the sandbox's /tmp).
//
// Anything else on the line (another property, an option the table does
// not hold, a second goal other than compile or test-compile) goes to
// mvn's earlier handler.

// mvnSubGoal wraps mvn's handler.
func mvnSubGoal(prev handler) handler {
	return func(x *cmdCtx, args []word) {
		goal, props, ok := mvnSubGoalLine(args[1:])
		if !ok {
			prev(x, args)
			return
		}
		switch goal {
		case "exec:java":
			// Decided (pol20, issue 32 item 4): exec:java "executes the
			// supplied java class in the current VM with the enclosing
			// project's dependencies as classpath" (mojohaus
			// exec-maven-plugin java-mojo): the project's code, and
			// exec.args are that program's arguments, as go run's or npm
			// run's are. Inside the sandbox only; asked elsewhere.
			if x.writtenBefore() { // off and in place the project's code, as make test (projectrunners_off.go)
				prev(x, args)
				return
			}
			for k, v := range props {
				switch k {
				case "exec.mainClass":
					if !javaClassName(v) {
						prev(x, args)
						return
					}
				case "exec.classpathScope":
					if v != "compile" && v != "test" && v != "runtime" {
						prev(x, args)
						return
					}
				case "exec.args", "exec.cleanupDaemonThreads":
				default:
					prev(x, args)
					return
				}
			}
			x.projectCode(args[0].val+" exec:java runs a main class of the project in Maven's JVM", RuleBuildOption, "")
			x.inWorkspace()
		case "help:effective-pom":
			out := ""
			for k, v := range props {
				switch k {
				case "output":
					out = v
				case "verbose":
				default:
					prev(x, args)
					return
				}
			}
			x.add(Allow, RuleReadOnly, args[0].val+" help:effective-pom prints the project's computed pom")
			x.inWorkspace()
			if out != "" {
				x.writeStr(out)
			}
		}
	}
}

// mvnSubGoalLine reads [OPTIONS] [compile|test-compile] GOAL -DK=V…; ok when
// GOAL is exec:java or help:effective-pom and every option is a harmless
// one.
func mvnSubGoalLine(args []word) (string, map[string]string, bool) {
	goal := ""
	props := map[string]string{}
	for i := 0; i < len(args); i++ {
		w := args[i]
		if !w.static || w.pattern {
			return "", nil, false
		}
		v := w.val
		switch {
		case v == "exec:java" || v == "help:effective-pom":
			if goal != "" {
				return "", nil, false
			}
			goal = v
		case v == "compile" || v == "test-compile" || v == "process-classes":
		case strings.HasPrefix(v, "-D") && len(v) > 2:
			k, val, _ := strings.Cut(v[2:], "=")
			props[k] = val
		case v == "-D" && i+1 < len(args):
			i++
			k, val, _ := strings.Cut(args[i].val, "=")
			props[k] = val
		case setOf("-q", "--quiet", "-B", "--batch-mode", "-e", "--errors", "-ntp", "--no-transfer-progress", "-o", "--offline", "-X", "--debug")[v]:
		case (v == "-pl" || v == "--projects") && i+1 < len(args) && plainToken(strings.ReplaceAll(args[i+1].val, "/", "")) && !strings.Contains(args[i+1].val, ".."):
			i++
		default:
			return "", nil, false
		}
	}
	return goal, props, goal != ""
}

// javaClassName: a fully qualified class name (com.acme.tools.SchemaDump).
func javaClassName(v string) bool {
	if v == "" || len(v) > 256 {
		return false
	}
	for _, part := range strings.Split(v, ".") {
		if part == "" {
			return false
		}
		for i, r := range part {
			if !(r == '_' || r == '$' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || i > 0 && r >= '0' && r <= '9') {
				return false
			}
		}
	}
	return true
}

// addBuildSubToolHandlers wraps the build tools whose sub-tools are judged
// here and in buildsubtools.go.
func addBuildSubToolHandlers(handlers map[string]handler) {
	for _, n := range []string{"mvn", "mvnw"} {
		if handlers[n] != nil {
			handlers[n] = mvnSubGoal(handlers[n])
		}
	}
}
