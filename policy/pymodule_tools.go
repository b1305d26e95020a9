package policy

import (
	"strings"
)

// python -m MOD runs MOD, and two kinds of MOD are not the project's code:
//
//   - a tool the policy knows as a program (twine, poetry, hatch, flit,
//     black, …): python -m twine upload is twine upload, publishing
//     wherever it is spelled (.venv/bin/python -m, uv run python -m,
//     python3 -m all reach here), so it is judged as that program;
//   - a module of the standard library with a command line (base64,
//     zipfile, tarfile, webbrowser, …): it is judged as the tool it is, a
//     reader of its path arguments (python -m base64 .env reads a secret),
//     an archiver (python -m zipfile -c out.zip ~/.ssh reads a credential
//     and writes the archive) or a network tool (python -m webbrowser URL).
//
// Any other module is the project's or one of its packages, as before.

// pyStdlibReaders read the files they are given and print to stdout.
var pyStdlibReaders = wordSet{words: []string{"base64", "quopri", "uu", "tokenize", "dis", "ast", "pickletools",
	"filecmp", "mimetypes", "pyclbr", "symtable", "json", "json.tool"}}

// pyStdlibNet open connections, a browser or a server.
var pyStdlibNet = wordSet{words: []string{"webbrowser", "antigravity", "smtpd", "smtplib", "ftplib", "telnetlib",
	"xmlrpc.server", "http.client", "urllib.request", "aiosmtpd", "pydoc"}}

// pythonModuleTool judges python -m mod args when mod is a known program
// or a standard-library tool, and reports whether it did.
func (x *cmdCtx) pythonModuleTool(name, mod string, args []word) bool {
	switch {
	case pyStdlibReaders.has(mod):
		x.add(Allow, RuleReadOnly, name+" -m "+mod+" reads the files it is given")
		for _, a := range args {
			if !strings.HasPrefix(a.val, "-") {
				x.read(a)
			}
		}
		return true
	case mod == "zipfile" || mod == "tarfile":
		x.pyArchiveModule(name, mod, args)
		return true
	case mod == "gzip":
		x.add(Allow, RuleFileWrite, name+" -m gzip compresses or decompresses the files it is given")
		for _, a := range args {
			if !strings.HasPrefix(a.val, "-") {
				x.read(a)
				x.write(a)
			}
		}
		return true
	case mod == "timeit" || mod == "pdb" || mod == "cProfile" || mod == "profile" || mod == "trace":
		x.pyCodeModule(name, mod, args)
		return true
	case mod == "ensurepip" && hasAnyArg(args, "--user", "--root"):
		x.add(Ask, RulePkgInstall, name+" -m ensurepip installs pip outside the project's environment")
		return true
	case mod == "dotenv":
		x.dotenvModule(name, args) // secretprinters.go
		return true
	case pyStdlibNet.has(mod):
		x.add(Ask, RuleNetTool, name+" -m "+mod+" opens network connections or a browser")
		return true
	}
	_, known := handlerFor(mod)
	if !known && publishSeqs.get()[mod] == nil && !packageTools.has(mod) {
		return false
	}
	// the module is that program: its handler, its prefix rules and
	// publishing are judged on mod args (command.go)
	x.command(append([]word{{val: mod, static: true}}, args...), 1)
	return true
}

// pyArchiveModule judges python -m zipfile|tarfile: -c ARCHIVE SRC…
// reads the sources and writes the archive, -e ARCHIVE [DIR] reads the
// archive and writes DIR, -l and -t read the archive.
func (x *cmdCtx) pyArchiveModule(name, mod string, args []word) {
	x.add(Allow, RuleFileWrite, name+" -m "+mod+" lists, tests, makes or extracts an archive")
	var ops []word
	mode := ""
	for _, a := range args {
		switch a.val {
		case "-c", "--create":
			mode = "c"
		case "-e", "--extract":
			mode = "e"
		case "-l", "--list", "-t", "--test":
			mode = "l"
		case "-v", "--verbose":
		default:
			if strings.HasPrefix(a.val, "-") {
				x.add(Ask, RuleUnknownCommand, name+" -m "+mod+" with an option the policy does not know: "+a.val)
				continue
			}
			ops = append(ops, a)
		}
	}
	for i, o := range ops {
		switch {
		case mode == "c" && i == 0, mode == "e" && i == 1:
			x.write(o)
		default:
			x.read(o)
		}
	}
	if mode == "e" && len(ops) < 2 {
		x.writeStr(".")
	}
}

// pyCodeModule judges the standard library's code runners: timeit runs
// its statements and setup (-s) as code, pdb runs its -c commands (a !
// line is python), cProfile, profile and trace run a script or module and
// write -o FILE. The code is judged as inline code, the script as a
// script.
func (x *cmdCtx) pyCodeModule(name, mod string, args []word) {
	what := name + " -m " + mod
	var codes []string
	static := true
	for i := 0; i < len(args); i++ {
		a := args[i]
		v := a.val
		takes := func() (word, bool) {
			if i+1 < len(args) {
				i++
				return args[i], true
			}
			return word{}, false
		}
		switch {
		case mod == "timeit" && (v == "-s" || v == "--setup"):
			if w, ok := takes(); ok {
				codes, static = append(codes, w.val), static && w.static
			}
		case mod == "timeit" && (v == "-n" || v == "-r" || v == "-u" || strings.HasPrefix(v, "--number") || strings.HasPrefix(v, "--repeat") || strings.HasPrefix(v, "--unit")):
			if !strings.Contains(v, "=") {
				takes()
			}
		case mod == "pdb" && v == "-c":
			if w, ok := takes(); ok {
				codes, static = append(codes, strings.TrimPrefix(w.val, "!")), static && w.static
			}
		case (mod == "cProfile" || mod == "profile") && (v == "-s" || v == "--sort"):
			takes() // the sort key (cumtime), not the script (off30)
		case (mod == "cProfile" || mod == "profile") && v == "-o":
			if w, ok := takes(); ok {
				defer x.write(w) // after the script is judged: the profile is written once it ran, not a file it runs
			}
		case mod == "trace" && (v == "--file" || v == "-f" || v == "--coverdir"):
			if w, ok := takes(); ok {
				x.write(w)
			}
		case (mod == "cProfile" || mod == "profile" || mod == "pdb" || mod == "trace") && v == "-m":
			if w, ok := takes(); ok {
				x.sandboxedCode(what+" runs the module "+quoteShort(w.val), RuleInterpScript, what+" runs a module the policy does not know")
			}
			i = len(args)
		case strings.HasPrefix(v, "-"):
		case mod == "timeit":
			codes, static = append(codes, v), static && a.static
		case mod == "cProfile" || mod == "profile":
			// off30: the profiler runs the script as python does, and
			// only adds timing (its -o file judged above): judged as
			// `python SCRIPT`, so a workspace script is allowed off too.
			x.interpScript(name, a)
			i = len(args)
		default:
			x.interpScript(what, a)
			i = len(args)
		}
	}
	if !static {
		x.add(Ask, RuleInterpInline, what+" runs code built from an expansion")
		return
	}
	if len(codes) > 0 || mod == "timeit" {
		x.inlineCode(what, strings.Join(codes, "\n"))
	}
}

// hasAnyArg reports whether one of args is one of names.
func hasAnyArg(args []word, names ...string) bool {
	for _, a := range args {
		for _, n := range names {
			if a.val == n {
				return true
			}
		}
	}
	return false
}
