package policy

import (
	"bytes"
	"errors"
	"io/fs"
	"os"
	"strings"
)

// A program the line's own build made in a build folder, run with the
// sandbox off (issue 32, off29): `cmake --build build --target unit_tests
// && ./build/tests/unit_tests --gtest_filter='Parser.*'`, `javac -d out
// src/*.java && java -cp out com.example.Main`. builtrun_off.go allows a
// product the line compiled by name (`gcc -o build/t … && ./build/t`);
// cmake --build and javac -d name the folder, not the program, so a
// program below a folder the build on the && chain that leads here wrote
// (builtHere) is that build's product, the project's own code as ctest
// runs it. It must be a compiled program (ELF) or not exist yet (the
// build makes it).
//
// What keeps asking off (the decision of off27, TestBuiltRunOff, and of
// heldout2's "stale binary" row): a program in a build folder the line
// did not build on its chain (`./build/app` alone, `cmake --build build;
// ./build/app`, `java -cp target/classes …`): it runs whatever the folder
// held, which no request showed; a text file there (judged by its
// shebang, shebangoff.go); a link; a program named like a known one
// (./build/make); and a run after the line wrote any other file.

// plainProgramArgs reports whether args, a built program's arguments, are
// plain words naming nothing outside the workspace: letters, digits and
// -_.=/:,+@*% only, none starting with ~ or /, none with "..". An ELF in a
// build folder is not proof the build made it (`cp /bin/rm build/app` on
// an earlier line, then `cmake --build build && ./build/app -rf ~`, or a
// copied python3 given -c CODE): arguments like those ask (review).
func plainProgramArgs(args []word) bool {
	for _, a := range args {
		if !a.static || a.pattern || a.brace || strings.HasPrefix(a.val, "~") || strings.HasPrefix(a.val, "/") || strings.Contains(a.val, "..") {
			return false
		}
		for _, r := range a.val {
			if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("-_.=/:,+@*%", r)) {
				return false
			}
		}
	}
	return true
}

// elfMagic starts every ELF program.
var elfMagic = []byte{0x7f, 'E', 'L', 'F'}

// builtProgramOff reports whether the workspace program at paths may run
// with the sandbox off as the product of the line's own build (see
// above).
func (x *cmdCtx) builtProgramOff(paths []string) bool {
	if x.c.sandbox || len(paths) == 0 || x.wroteBesidesBuilds() {
		return false
	}
	for _, p := range paths {
		if !x.inBuiltFolder(p) || !compiledOrAbsent(p) {
			return false
		}
	}
	return true
}

// inBuiltFolder reports whether p lies below a folder the build on this
// line's && chain wrote (markBuilt), inside the workspace's build output.
func (x *cmdCtx) inBuiltFolder(p string) bool {
	if !inBuildOutput(x.c, []string{p}) {
		return false
	}
	for q := range x.c.built {
		if q != p && within(p, q) && x.c.builtHere(q) && !x.c.builtOutside[q] {
			return true
		}
	}
	return false
}

// compiledOrAbsent reports whether p is a regular file starting with the
// ELF magic, or does not exist.
func compiledOrAbsent(p string) bool {
	fi, err := os.Lstat(p)
	if errors.Is(err, fs.ErrNotExist) {
		return true
	}
	if err != nil || !fi.Mode().IsRegular() {
		return false
	}
	f, err := os.Open(p)
	if err != nil {
		return false
	}
	defer f.Close()
	head := make([]byte, len(elfMagic))
	n, _ := f.Read(head)
	return bytes.Equal(head[:n], elfMagic)
}

// wroteBesidesBuilds is writtenBefore without the outputs of a build on
// the && chain that leads to this command (builtHere).
func (x *cmdCtx) wroteBesidesBuilds() bool {
	if !x.writtenBefore() {
		return false
	}
	own := map[string]bool{}
	if x.part != nil {
		for _, r := range x.part.Redirects {
			own[r] = true
		}
	}
	for p := range x.c.written {
		if !own[p] && !x.c.builtHere(p) {
			return true
		}
	}
	return false
}

// markBuilt records w, a build folder, as made by the build at this step
// of the line (builtHere), as buildOutput records a product.
func (x *cmdCtx) markBuilt(w word) {
	if !w.static || w.pattern || w.brace {
		return
	}
	for _, p := range x.resolve(w) {
		if x.c.built == nil {
			x.c.built = map[string]int{}
		}
		x.c.built[p] = x.c.step
	}
}

// javacOut is javac: judged by prev, and the folder its -d names is
// recorded as this step's build (markBuilt), so `javac -d out … && java
// -cp out Main` runs what it compiled (classDirOff).
func javacOut(prev handler) handler {
	return func(x *cmdCtx, args []word) {
		prev(x, args)
		for i := 1; i+1 < len(args); i++ {
			if args[i].val == "-d" && args[i].static {
				x.markBuilt(args[i+1])
			}
		}
	}
}
