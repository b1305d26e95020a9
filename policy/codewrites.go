package policy

import (
	"regexp"
)

// Inline code that writes project files by name. `python3 - <<'EOF' …
// Path('src/config.py').write_text(…) … EOF` is how agents write a file
// with a script; inside the sandbox the write is judged as the path rules
// judge any write (a run-later file asks, .git is denied, outside the
// workspace is denied), not asked for the word "write". Only writes whose
// target is a plain string literal are read so; any other write, and any
// other risky capability, still asks (riskyCodeToken).

// codeWritePatterns are built on first use (lazy.go): the package does no
// work when a process starts.
type codeWritePatterns struct {
	pyOpenWrite, pyPathWrite, nodeWrite, handleWrite, otherWritableOpen *regexp.Regexp
}

var codeWrites = lazy[*codeWritePatterns]{build: func() *codeWritePatterns {
	return &codeWritePatterns{
		// open('path', 'w') / open("path", mode="a", …) in Python.
		pyOpenWrite: regexp.MustCompile(`(^|[^\w.])open\(\s*('[^'\\{}\n]*'|"[^"\\{}\n]*")\s*,\s*(mode\s*=\s*)?('[wax]b?\+?t?'|"[wax]b?\+?t?"|'[wax]t?'|"[wax]t?")`),
		// Path('path').write_text( / .write_bytes( in Python.
		pyPathWrite: regexp.MustCompile(`(^|[^\w.])(pathlib\.)?Path\(\s*('[^'\\{}\n]*'|"[^"\\{}\n]*")\s*\)\.write_(text|bytes)\(`),
		// fs.writeFileSync('path', … / fs.appendFileSync("path", … in Node.
		nodeWrite: regexp.MustCompile(`(^|[^\w.])fs\.(writeFileSync|appendFileSync)\(\s*('[^'\\\n]*'|"[^"\\\n]*")\s*,`),
		// A handle's own write: f.write(…), out.writelines(…), sys.stdout.write(…).
		handleWrite: regexp.MustCompile(`\.(write|writelines)\(`),
		// Any other way to get a writable handle: Path(x).open('w'), os.fdopen, io.open(…, 'w').
		otherWritableOpen: regexp.MustCompile(`\.open\(\s*(mode\s*=\s*)?['"][wax]`),
	}
}}

// literalWrites judges the literal write targets in code as writes and
// returns code with those writes (and the handle writes they make
// possible) taken out, for riskyCodeToken to judge the rest. When a
// writable handle may come from anywhere else, code is returned as is.
func (x *cmdCtx) literalWrites(code string) string {
	cw := codeWrites.get()
	pyOpenWrite, pyPathWrite, nodeWrite, handleWrite, otherWritableOpen := cw.pyOpenWrite, cw.pyPathWrite, cw.nodeWrite, cw.handleWrite, cw.otherWritableOpen
	if otherWritableOpen.MatchString(code) {
		return code
	}
	var targets []string
	out := pyOpenWrite.ReplaceAllStringFunc(code, func(m string) string {
		sub := pyOpenWrite.FindStringSubmatch(m)
		targets = append(targets, unquoteLit(sub[2]))
		return sub[1] + "opened("
	})
	out = pyPathWrite.ReplaceAllStringFunc(out, func(m string) string {
		sub := pyPathWrite.FindStringSubmatch(m)
		targets = append(targets, unquoteLit(sub[3]))
		return sub[1] + "pathwritten("
	})
	out = x.boundPathWrites(out, &targets) // codewrites_bound.go
	out = nodeWrite.ReplaceAllStringFunc(out, func(m string) string {
		sub := nodeWrite.FindStringSubmatch(m)
		targets = append(targets, unquoteLit(sub[3]))
		return sub[1] + "nodewritten("
	})
	if len(targets) == 0 {
		return code
	}
	// Any open( left is judged by riskyCodeToken: only a read-only one
	// (no mode, or "r") passes, and a read-only handle cannot be written.
	for _, t := range targets {
		if t == "" {
			return code
		}
		x.writeStr(t)
	}
	return handleWrite.ReplaceAllString(out, ".put(")
}

// unquoteLit strips the quotes of a string literal the patterns above
// matched (which hold no escape and no interpolation).
func unquoteLit(q string) string {
	if len(q) >= 2 {
		return q[1 : len(q)-1]
	}
	return ""
}
