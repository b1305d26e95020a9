package policy

import (
	"bytes"
	"io"
	"os"
	"slices"
	"strings"
)

// A workspace script run directly with the sandbox off (off25). Running
// `./test.sh` is running `sh ./test.sh` when the file's first line says
// `#!/bin/sh`: the kernel starts the interpreter the shebang names on the
// file. The lead's decision (offcode.go) allows a workspace script run
// through one of offInterpreters off, so a workspace file whose shebang
// names one of them is judged as that line (runScript), and the two
// spellings of one risk get one verdict. Only the first line is read (at
// most shebangMax bytes), only of a regular file that is not a link (the
// path is already canonical and inside the workspace). What keeps asking
// off: a binary, a file with no shebang, an interpreter outside the system
// directories or not in offInterpreters, env with options other than -S
// or with text env -S would expand, a kernel argument that is not a plain
// word (#!/usr/bin/node --require=/tmp/x), a shell given options other
// than -e, -u and -x, a first line longer than the bound, a link, a FIFO
// or other non-regular file, a program named like a known one
// (pathProgram), and a file this line wrote (runFileOff). The verdict is
// the line's: `#!/usr/bin/env -S deno run -A` is judged as `deno run -A
// FILE`, whatever that is off.

// shebangMax bounds the read of a script's first line.
const shebangMax = 256

// shebangLine reads the shebang of the regular file p: the text after
// "#!" up to the end of the first line, or false.
func shebangLine(p string) (string, bool) {
	fi, err := os.Lstat(p)
	if err != nil || !fi.Mode().IsRegular() {
		return "", false
	}
	f, err := openScriptHead(p) // shebangopen_*.go
	if err != nil {
		return "", false
	}
	defer f.Close()
	if fi, err := f.Stat(); err != nil || !fi.Mode().IsRegular() {
		return "", false
	}
	buf := make([]byte, shebangMax)
	n, err := io.ReadFull(f, buf)
	if err != nil && err != io.ErrUnexpectedEOF && err != io.EOF {
		return "", false
	}
	buf = buf[:n]
	end := bytes.IndexByte(buf, '\n')
	if end < 0 || !bytes.HasPrefix(buf, []byte("#!")) {
		return "", false // no shebang, or a first line longer than the bound
	}
	line := string(buf[2:end])
	line = strings.TrimSuffix(line, "\r")
	if strings.ContainsRune(line, 0) {
		return "", false
	}
	return line, true
}

// shebangArgv returns the interpreter's name and its arguments from a
// shebang line, as the kernel (and env -S) would start them; false when
// the interpreter is not a system program or env's text is not plain.
func shebangArgv(line string) ([]string, bool) {
	line = strings.TrimLeft(line, " \t")
	path, optarg, _ := strings.Cut(line, " ")
	if i := strings.IndexByte(path, '\t'); i >= 0 {
		path, optarg = path[:i], path[i+1:]+" "+optarg
	}
	optarg = strings.Trim(optarg, " \t")
	prog, ok := systemProgram(path)
	if !ok {
		return nil, false // #!./evil, #!/tmp/x/sh, #!/usr/local/bin/node
	}
	if prog != "env" {
		if optarg == "" {
			return []string{prog}, true
		}
		// The kernel passes the rest as one argument; only a plain one
		// (-u, --enable-source-maps) is judged, never a path or a value.
		return []string{prog, optarg}, plainToken(optarg)
	}
	// env: one program name, or -S and plain words env splits itself.
	if rest, ok := strings.CutPrefix(optarg, "-S"); ok {
		words := strings.Fields(rest)
		for _, w := range words {
			if !plainToken(w) || strings.HasPrefix(words[0], "-") {
				return nil, false // ${VAR}, quotes, escapes, env options
			}
		}
		return words, len(words) > 0
	}
	if !plainToken(optarg) || strings.HasPrefix(optarg, "-") || optarg == "" {
		return nil, false // env -i, env VAR=x, env "python3 -u"
	}
	return []string{optarg}, true
}

// shebangOff judges the workspace program name (at paths, canonical and
// in the workspace) run with args off as the line its shebang spells:
// `sh ./test.sh` for `#!/bin/sh`. It reports false, judging nothing, when
// the file is not such a script.
func (x *cmdCtx) shebangOff(name word, paths []string, args []word, depth int) bool {
	if x.c.sandbox || len(paths) == 0 || x.writtenBefore() {
		return false
	}
	var argv []string
	for i, p := range paths {
		line, ok := shebangLine(p)
		if !ok {
			return false
		}
		a, ok := shebangArgv(line)
		if !ok || !offInterpreter(a[0]) || (i > 0 && strings.Join(a, " ") != strings.Join(argv, " ")) {
			return false
		}
		argv = a
	}
	if len(argv) == 1 {
		x.runScript(argv[0], name, RulePathProgram)
		return true
	}
	if slices.Contains(shellNames, argv[0]) && !shellTraceOpts(argv[1:]) {
		return false // #!/bin/sh -c, -s, -i: other options to a shell keep asking
	}
	line := make([]word, 0, len(argv)+len(args)+1)
	for _, a := range argv {
		line = append(line, word{val: a, static: true})
	}
	line = append(line, name)
	x.command(append(line, args...), depth+1)
	return true
}

// shellTraceOpts reports whether a shell's shebang options only stop on
// errors and trace (#!/bin/bash -eu, -x): they change no script the shell
// reads.
func shellTraceOpts(opts []string) bool {
	for _, o := range opts {
		if len(o) < 2 || o[0] != '-' || strings.Trim(o[1:], "eux") != "" {
			return false
		}
	}
	return true
}
