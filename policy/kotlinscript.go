package policy

import (
	"bytes"
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// `kotlinc -script scripts/check.main.kts` (issue 32, off29; polcorp13):
// -script names a file, not inline code. A Kotlin script of the workspace
// is the project's own code, as `python scripts/x.py` is (offcode.go), so
// it is judged by runFileOff: allowed inside the sandbox, and off too
// unless the line wrote a file before it or the script's own annotations
// fetch code: `@file:DependsOn("g:a:v")`, `@file:Repository(…)` and
// `@file:Import(…)` make the script host download Maven artifacts (or
// read another script) and run them, which is a package nobody declared
// (the npx decision). A script that cannot be read (a link, too long, not
// a regular file) asks off. Its arguments are the script's own.

// kotlinScriptMax bounds the read of a script's text.
const kotlinScriptMax = 256 << 10

// kotlinScript judges tool -script FILE ARGS…; rest starts at FILE. It
// reports false, judging nothing, when the form is not one it knows.
func (x *cmdCtx) kotlinScript(tool string, rest []word) bool {
	switch filepath.Base(tool) {
	case "kotlinc", "kotlinc-jvm", "kotlin":
	default:
		return false
	}
	if len(rest) == 0 || !rest[0].static || !strings.HasSuffix(rest[0].val, ".kts") {
		return false
	}
	f := rest[0]
	offOK := !x.writtenBefore()
	for _, p := range x.resolve(f) {
		offOK = offOK && kotlinScriptFetchesNothing(p)
	}
	what := filepath.Base(tool) + " -script runs " + quoteShort(f.val)
	x.runFileOff(f, what, RuleInterpScript, what+", and the sandbox is off (or its @file: annotations fetch code)", offOK)
	return true
}

// kotlinScriptFetchesNothing reports whether the script at p is a regular
// file whose text names no @file:DependsOn, Repository or Import, or does
// not exist (the run fails).
func kotlinScriptFetchesNothing(p string) bool {
	fi, err := os.Lstat(p)
	if errors.Is(err, fs.ErrNotExist) {
		return true
	}
	if err != nil || !fi.Mode().IsRegular() || fi.Size() > kotlinScriptMax {
		return false
	}
	fh, err := os.Open(p)
	if err != nil {
		return false
	}
	defer fh.Close()
	text, err := io.ReadAll(io.LimitReader(fh, kotlinScriptMax+1))
	if err != nil || len(text) > kotlinScriptMax {
		return false
	}
	for _, a := range []string{"DependsOn", "Repository", "Import", "CompilerOptions"} {
		if bytes.Contains(text, []byte(a)) {
			return false
		}
	}
	return true
}
