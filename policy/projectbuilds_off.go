package policy

import (
	"errors"
	"io/fs"
	"os"
	"strings"
)

// The project's own programs with the sandbox off (issue 32, pol23 item 5).
//
//   - `java -jar build/libs/app.jar`, `java -jar target/app-1.0.jar`: a jar
//     in a build tool's output folder (build/ for Gradle, target/ for Maven
//     and sbt, in the workspace or a module of it) is what `./gradlew build`
//     or `mvn package` made from the project's sources: the project's own
//     code, allowed off as `make test` is. A jar anywhere else (lib/, the
//     home directory, /tmp, one this line wrote or downloaded) is a program
//     nobody on the line built: it asks off, as it did. `java -cp out Main`
//     (compiled classes) keeps asking off, as the lead decided in pol22.
//   - `bin/rails server`, `rails s -p 3001 -b 127.0.0.1`: the project's
//     development server, as `npm run dev` is. Only the options that pick a
//     port, an address, the development or test environment or the
//     server's logging are known; a daemon (-d), another environment
//     (-e production) or any other option asks, as every other rails
//     command does.
//   - `bin/rails routes -g users`, `rails routes -c admin/users -E`: the
//     route listing filtered by a name or controller pattern, as plain
//     `rails routes` is.
//   - `deno run -A main.ts` stays allowed off (pol22, runScript): a
//     workspace script is the project's code whatever permissions Deno
//     gives it, as `node main.ts` is, which has them all; a remote or npm:
//     specifier is a fetch-and-run (fetchrun.go) and asks off.

// buildOutputJar reports whether a jar path (relative to the workspace or
// absolute) lies in a build tool's output folder.
func buildOutputJar(c *checkEnv, p string) bool {
	if !strings.HasSuffix(p, ".jar") || c.ws == "" {
		return false
	}
	r, ok := relTo(c.ws, p)
	if !ok {
		return false
	}
	for _, el := range strings.Split(r, "/") {
		if el == "build" || el == "target" {
			return true
		}
		if el == "" || el == ".." || strings.HasPrefix(el, ".") || el == "node_modules" || el == "vendor" {
			return false
		}
	}
	return false
}

// relTo is p relative to root when p lies within it.
func relTo(root, p string) (string, bool) {
	if !within(p, root) || p == root {
		return "", false
	}
	return strings.TrimPrefix(p, root+"/"), true
}

// javaJarOff reports whether java's program f is a jar of the project's
// build output, which runs off as the project's own code.
func (x *cmdCtx) javaJarOff(f word) bool {
	paths := x.resolve(f)
	if len(paths) == 0 {
		return false
	}
	for _, p := range paths {
		if !buildOutputJar(x.c, p) && !x.classDirOff(p) {
			return false
		}
	}
	return true
}

// classDirOff reports whether p, a class path entry, is a folder of the
// workspace's build output (out, build/classes, target/classes) that the
// build on this line's && chain wrote (markBuilt: `javac -d out … && java
// -cp out com.example.Main`), or lies in one: the project's compiled
// sources, as `mvn test` runs them (buildoutput_off.go). A folder the line
// did not build keeps asking (TestBuildOutputsAndProjectSettings).
func (x *cmdCtx) classDirOff(p string) bool {
	r, ok := relTo(x.c.ws, p)
	if !ok || x.wroteBesidesBuilds() {
		return false
	}
	top, _, _ := strings.Cut(r, "/")
	if !buildOutputDirs.has(top) && !strings.HasPrefix(top, "cmake-build-") {
		return false
	}
	built := false
	for q := range x.c.built {
		if (q == p || within(p, q)) && x.c.builtHere(q) {
			built = true
		}
	}
	fi, err := os.Lstat(p)
	return built && (errors.Is(err, fs.ErrNotExist) || err == nil && fi.IsDir())
}

// railsServerOpts are rails server's options that take a value and which
// values they may take ("" for any port number).
var railsServerOpts = wordSet{words: []string{"-p", "--port", "-b", "--binding", "-e", "--environment", "-u", "--using"}}

// railsServer allows rails server's plain development forms (see above);
// rest are the words after server. It reports whether it judged the line.
func railsServer(x *cmdCtx, rest []word) bool {
	for i := 0; i < len(rest); i++ {
		a := rest[i]
		if !a.static {
			return false
		}
		name, val, hasVal := strings.Cut(a.val, "=")
		switch {
		case a.val == "--log-to-stdout" || a.val == "--dev-caching" || a.val == "--no-dev-caching" || a.val == "-C":
		case railsServerOpts.has(name):
			if !hasVal {
				if i+1 >= len(rest) || !rest[i+1].static {
					return false
				}
				i++
				val = rest[i].val
			}
			if !railsServerValue(name, val) {
				return false
			}
		default:
			return false
		}
	}
	x.add(Allow, RuleBuildProject, "rails server runs the project's development server, as npm run dev does")
	x.inWorkspace()
	return true
}

func railsServerValue(opt, v string) bool {
	switch opt {
	case "-p", "--port":
		return v != "" && strings.Trim(v, "0123456789") == ""
	case "-b", "--binding":
		return v == "127.0.0.1" || v == "localhost" || v == "0.0.0.0" || v == "::1" || v == "::"
	case "-e", "--environment":
		return v == "development" || v == "test"
	case "-u", "--using":
		return v == "puma" || v == "thin" || v == "webrick" || v == "falcon"
	}
	return false
}

// railsRouteFilters reports whether rest are only rails routes' filter and
// format options: -g/--grep PATTERN, -c/--controller NAME, -E/--expanded,
// --unused.
func railsRouteFilters(rest []word) bool {
	for i := 0; i < len(rest); i++ {
		a := rest[i]
		if !a.static {
			return false
		}
		name, _, hasVal := strings.Cut(a.val, "=")
		switch {
		case a.val == "-E" || a.val == "--expanded" || a.val == "--unused":
		case name == "-g" || name == "--grep" || name == "-c" || name == "--controller":
			if !hasVal {
				if i+1 >= len(rest) || !rest[i+1].static {
					return false
				}
				i++
			}
		default:
			return false
		}
	}
	return true
}
