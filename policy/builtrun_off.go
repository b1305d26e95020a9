package policy

import "strings"

// A program this line compiles and then runs, with the sandbox off (issue
// 32, off27): `gcc -Wall -o build/demo src/demo.c && ./build/demo`, `g++
// -std=c++20 -fsanitize=address tests/t.cpp -o build/t && ./build/t`, `go
// build -o bin/app . && ./bin/app`. With the sandbox off `go run .`,
// `cargo run` and `make test` are allowed as the project's own code
// (projectbuilds_off.go); compiling the project's sources and running the
// product on the same && chain is that same code, so it is judged alike.
// Only a product built on the chain that leads to the run counts
// (builtHere: `gcc -o x a.c; ./x` may run what x held before), and only
// one compiled from the workspace: every source and -include file inside
// it, every -I and -L directory inside it or a system one under /usr (a
// header in /tmp/inc would put code the workspace does not hold into the
// build). In place it still asks, as every write-then-run does there.

// offBuiltRun reports whether p, built on this line's chain, may run with
// the sandbox off (see above).
func (x *cmdCtx) offBuiltRun(p string) bool {
	return !x.c.sandbox && !x.c.inPlace && !x.c.builtOutside[p]
}

// compiledFromWorkspace reports whether every source (reads) is inside
// the workspace and every include or library directory is inside it or
// under /usr.
func (x *cmdCtx) compiledFromWorkspace(reads, includes []word) bool {
	inside := func(w word, sys bool) bool {
		ps := x.resolve(w)
		if len(ps) == 0 {
			return false
		}
		for _, p := range ps {
			if !within(p, x.c.ws) && !(sys && strings.HasPrefix(p, "/usr/") && !strings.Contains(p, "..")) {
				return false
			}
		}
		return true
	}
	for _, r := range reads {
		if !inside(r, false) {
			return false
		}
	}
	for _, r := range includes {
		if !inside(r, true) {
			return false
		}
	}
	return true
}

// builtOutside marks w's product as compiled from outside the workspace.
func (x *cmdCtx) builtOutside(w word) {
	for _, p := range x.resolve(w) {
		if x.c.builtOutside == nil {
			x.c.builtOutside = map[string]bool{}
		}
		x.c.builtOutside[p] = true
	}
}

// goBuiltFrom marks go build -o's product as built outside the workspace
// when an operand names a package by import path (github.com/x/y, a
// dependency's code, which `go run github.com/x/y` asks for off) or a
// directory outside the workspace: only `.`, `./…` and files inside the
// workspace are the project's own.
func (x *cmdCtx) goBuiltFrom(out word, ops *[]word) {
	for _, o := range *ops {
		v := o.val
		if v == "-args" || v == "--" {
			return // the rest are the program's arguments
		}
		local := o.static && (v == "." || strings.HasPrefix(v, "./") || strings.HasSuffix(v, ".go"))
		if !local || !x.compiledFromWorkspace([]word{o}, nil) {
			x.builtOutside(out)
			return
		}
	}
}
