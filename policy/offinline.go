package policy

import "strings"

// Inline code with the sandbox off (issue 32, pol23): `python3 -c
// "import sys; print(sys.version)"`, `python3 -c "import json;
// print(json.load(open('package.json'))['name'])"`, `node -e
// "console.log(require('./package.json').version)"`. Inside the sandbox a
// snippet that only computes and reads is allowed (inlineCode); without
// it nothing contains what the snippet reads, so off only the narrower
// class is allowed: the snippet passes the sandbox's judgment
// (riskyCodeToken: no spawn, network, deletion, other write, environment,
// home, eval or decoding) once only its writes to files it names with a
// plain string literal are taken out and judged as those writes
// (offinline_writes.go, off26), and
// every call that opens, reads or lists a file or loads a module names it
// with one plain string literal, a relative path inside the workspace
// judged as a read (so open('.env') asks as cat .env does). A path built
// from a variable, an f-string or a concatenation, a path outside the
// workspace, and a line that wrote a file first ask, as any other snippet
// does. Modules: Python may import only the standard library's modules in
// pyComputeModules (json, sys, platform, …; their dangerous calls are
// riskyTokens); `import mymodule` or `import boto3` runs code whose calls
// the snippet's text does not show, and asks as `python -m mymodule` does
// off. JavaScript may require a workspace file by a relative literal
// (require('./package.json')) or a builtin in jsComputeModules; other
// languages may load nothing.

// offOpeners are the calls whose first argument is a file or module the
// code reads: readCalls (codewritepaths.go) and the ones that only load,
// list or name a path.
var offOpeners = []string{"path(", "require(", "read_csv(", "read_json(", "read_table(", "read_excel(", "loadtxt(",
	"genfromtxt(", "glob(", "listdir(", "scandir(", "walk(", "opendir(", "readdir(", "readdirsync(", "load_file(",
	"dir.entries(", "dir.children(", "file.exist", "exists("}

// offComputeOnly allows name's inline code with the sandbox off when it
// only computes, reads workspace files it names literally and writes
// files it names literally (offinline_writes.go; see above); it reports
// whether it did. wroteBefore is whether the line wrote a file before the
// code ran (taken before the code's own writes were judged).
func (x *cmdCtx) offComputeOnly(name, code string, wroteBefore bool) bool {
	if x.c.sandbox || wroteBefore || codeNamesHome(code) || x.cw.unknown {
		return false
	}
	code = strReplaceCalls(x.offLiteralWrites(name, code)) // offinline_writes.go
	if riskyCodeToken(code) != "" || !computeModules(baseName(name), code) {
		return false
	}
	var paths []string
	ok := true
	for _, calls := range [][]string{readCalls, offOpeners} {
		eachCall(code, calls, func(args string) bool {
			p, lit := literalFirstArg(args)
			if !lit {
				ok = false
				return false
			}
			paths = append(paths, p)
			return true
		})
	}
	eachCall(code, []string{"require("}, func(args string) bool {
		p, _ := literalFirstArg(args)
		if !strings.HasPrefix(p, "./") && !(jsLike(baseName(name)) && jsComputeModules.has(p)) {
			ok = false // require('lodash'): a package's code, not a file the snippet reads
		}
		return ok
	})
	if !ok {
		return false
	}
	sub := &cmdCtx{c: x.c, s: x.s, cw: x.cw, part: x.part}
	for _, p := range paths {
		if jsComputeModules.has(p) && jsLike(baseName(name)) {
			continue // require('path')
		}
		if p == "" || strings.HasPrefix(p, "/") || strings.HasPrefix(p, "|") || strings.HasPrefix(p, "~") || strings.Contains(p, "..") ||
			strings.ContainsAny(p, "$`{}*?[") {
			return false
		}
		sub.readStr(p)
	}
	if sub.set && sub.f.d != Allow {
		return false
	}
	x.add(Allow, RuleReadOnly, name+" runs inline code that only computes and reads workspace files it names (--sandbox off)")
	return true
}

// literalFirstArg is the text of a call's first argument (the text after
// its opening parenthesis) when that argument is one string literal.
func literalFirstArg(args string) (string, bool) {
	pieces := callArgs(args) // homeref.go
	if len(pieces) == 0 {
		return "", false
	}
	first := strings.TrimSpace(pieces[0])
	if first == "" || !strings.ContainsRune(`"'`, rune(first[0])) {
		return "", false
	}
	v, lit := codeStringValue(first)
	return v, lit && !strings.Contains(v, unknownCodeValue)
}

// pyComputeModules are standard-library modules a snippet off may import.
var pyComputeModules = wordSet{words: []string{"json", "sys", "platform", "math", "cmath", "re", "datetime", "time",
	"collections", "itertools", "functools", "string", "textwrap", "pprint", "hashlib", "uuid", "random", "statistics",
	"decimal", "fractions", "csv", "tomllib", "pathlib", "typing", "dataclasses", "enum",
	"calendar", "locale", "unicodedata", "difflib", "keyword", "operator", "copy", "heapq", "bisect", "numbers",
	"zoneinfo", "fnmatch", "sysconfig", "struct", "array", "ast", "shlex", "ipaddress",
	"secrets"}} // off30: secrets only draws random tokens (token_hex, choice, compare_digest)

// jsComputeModules are Node builtins a snippet off may require.
var jsComputeModules = wordSet{words: []string{"path", "node:path", "util", "node:util", "url", "node:url",
	"assert", "node:assert", "querystring", "node:querystring"}}

func jsLike(name string) bool {
	return name == "node" || name == "nodejs" || name == "bun" || name == "deno"
}

// computeModules reports whether every module the code loads is one a
// snippet off may load (see above).
func computeModules(name, code string) bool {
	low := strings.ToLower(code)
	if strings.HasPrefix(name, "python") {
		// off30: printing the import path reads it; every other use of
		// sys.path (insert, append, assignment) is a mutator below.
		low = strings.ReplaceAll(low, "print(sys.path)", "print()")
		for _, m := range pyMutators {
			if strings.Contains(low, m) {
				return false
			}
		}
		for _, stmt := range strings.FieldsFunc(code, func(r rune) bool { return r == '\n' || r == ';' }) {
			f := strings.Fields(stmt)
			if len(f) < 2 || f[0] != "import" && f[0] != "from" {
				if strings.Contains(" "+stmt, " import ") {
					return false // import after another keyword (if x: import y)
				}
				continue
			}
			var mods []string
			if f[0] == "from" {
				mods = f[1:2]
			} else {
				for _, item := range strings.Split(strings.Join(f[1:], " "), ",") {
					if g := strings.Fields(item); len(g) > 0 {
						mods = append(mods, g[0]) // import a.b as c, d
					}
				}
			}
			for _, m := range mods {
				top, _, _ := strings.Cut(strings.Trim(m, "()"), ".")
				if !pyComputeModules.has(top) {
					return false
				}
			}
		}
		return true
	}
	if jsLike(name) {
		// constructor and computed members reach Function and process
		// under another spelling: [].fill.constructor('…')(), p['ex'+'ecSync'].
		for _, kw := range []string{"import ", "import{", "require ", "load(", "include", "constructor", "this", "['", "[\"", "[`", "chdir"} {
			if strings.Contains(low, kw) {
				return false
			}
		}
		return true
	}
	if name != "ruby" {
		return false // perl do FILE, php require_once, lua dofile: no off allowance
	}
	for _, kw := range rubyLoads {
		if strings.Contains(low, kw) {
			return false
		}
	}
	return true
}

// pyMutators are pathlib and sys calls a snippet off may not make: they
// change files, leave the workspace or change where imports come from.
var pyMutators = []string{"sys.path", "path.insert", "path.append", ".parent", "touch(", "mkdir(", "replace(",
	"symlink_to(", "hardlink_to(", "help(", "breakpoint(",
	// os reached through another module (pathlib.os.chdir('/')), and the
	// dunders that reach any class (().__class__.__base__.__subclasses__())
	"os.", "posix", "chdir", "makedirs", "mkfifo", "mknod", "__"}

// rubyLoads are Ruby's ways to load or run other code and to open a pipe
// (open("|cmd"), IO.read("|cmd")).
var rubyLoads = []string{"require", "load", "open", "io.", "file.", "dir.", "%x", "kernel", "send(", "public_send",
	"const_get", "objectspace", "syscall", "trap", "at_exit", "stdin", "gets", "argf", "__data__"}
