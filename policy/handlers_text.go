package policy

import (
	"strings"
)

// addTextHandlers registers the text tools: grep, sed, awk, sort, jq and
// the like.
func addTextHandlers(handlers map[string]handler) {
	for _, n := range []string{"grep", "egrep", "fgrep", "rgrep", "zgrep", "ag", "ack", "git-grep"} {
		handlers[n] = grepCmd
	}
	handlers["rg"] = rgCmd
	handlers["sed"] = sedCmd
	handlers["gsed"] = sedCmd
	for _, n := range []string{"awk", "gawk", "mawk", "nawk", "busybox-awk"} {
		handlers[n] = awkCmd
	}
	handlers["sort"] = sortCmd
	handlers["uniq"] = uniqCmd
	handlers["xxd"] = xxdCmd
	handlers["jq"] = jqCmd
	handlers["yq"] = yqCmd
	handlers["gojq"] = jqCmd
}

func grepCmd(x *cmdCtx, args []word) {
	x.add(Allow, RuleReadOnly, "searches files")
	if args[0].val == "ag" && hasOpt(args[1:], "", "--pager") {
		x.add(Deny, RuleToolExec, "ag --pager runs a program")
	}
	if args[0].val == "ack" && hasOpt(args[1:], "", "--pager", "--env") {
		x.add(Ask, RuleToolExec, "ack --pager runs a program")
	}
	valued := "efmABCdD"
	long := []string{"regexp", "file", "max-count", "after-context", "before-context", "context",
		"devices", "directories", "include", "exclude", "exclude-dir", "exclude-from", "label",
		"binary-files", "color", "colour", "group-separator"}
	patternGiven := hasOpt(args[1:], "", "-e", "-f", "--regexp", "--file")
	for i, w := range args[1:] {
		if (w.val == "-f" || w.val == "--exclude-from") && i+2 < len(args) {
			x.read(args[i+2])
		}
	}
	for _, v := range longValues(args[1:], "file", "exclude-from") {
		x.readStr(v)
	}
	ops := operands(args[1:], valued, long)
	if !patternGiven && len(ops) > 0 {
		ops = ops[1:]
	}
	if len(ops) == 0 && (args[0].val == "rgrep" || args[0].val == "ag" || args[0].val == "ack" || hasOpt(args[1:], "rR", "--recursive", "--dereference-recursive")) {
		x.readStr(".")
	}
	for _, w := range ops {
		x.read(w)
	}
}

func rgCmd(x *cmdCtx, args []word) {
	x.add(Allow, RuleReadOnly, "searches files")
	if hasOpt(args[1:], "", "--pre", "--hostname-bin") {
		x.add(Deny, RuleToolExec, "rg --pre / --hostname-bin runs a program on every file")
		return
	}
	valued := "efgtTABCmMjdErV"
	long := []string{"regexp", "file", "glob", "iglob", "type", "type-not", "type-add", "type-clear",
		"after-context", "before-context", "context", "max-count", "max-columns", "threads",
		"max-depth", "maxdepth", "encoding", "replace", "sort", "sortr", "color", "colors",
		"context-separator", "field-context-separator", "field-match-separator", "path-separator",
		"engine", "max-filesize", "ignore-file", "pre-glob", "dfa-size-limit", "regex-size-limit",
		"hyperlink-format", "generate", "max-columns-preview"}
	patternGiven := hasOpt(args[1:], "", "-e", "-f", "--regexp", "--file")
	for i, w := range args[1:] {
		if (w.val == "-f" || w.val == "--ignore-file") && i+2 < len(args) {
			x.read(args[i+2])
		}
	}
	for _, v := range longValues(args[1:], "file", "ignore-file") {
		x.readStr(v)
	}
	ops := operands(args[1:], valued, long)
	if !patternGiven && len(ops) > 0 && !hasOpt(args[1:], "", "--files", "--type-list") {
		ops = ops[1:]
	}
	if len(ops) == 0 {
		x.readStr(".")
	}
	for _, w := range ops {
		x.read(w)
	}
}

func awkCmd(x *cmdCtx, args []word) {
	rest := args[1:]
	var program *word
	fromFile := false
	sandboxed := false
	var ops []word
	for i := 0; i < len(rest); i++ {
		a := rest[i].val
		switch {
		case a == "--":
			ops = append(ops, rest[i+1:]...)
			i = len(rest)
		case a == "-f" || a == "--file" || a == "-i" || a == "--include" || a == "-E" || a == "--exec":
			fromFile = true
			if i+1 < len(rest) {
				x.read(rest[i+1])
				i++
			}
		case a == "-l" || a == "--load" || strings.HasPrefix(a, "--load="):
			x.add(Ask, RuleAwkProgram, "awk --load loads a shared library")
			i++
		case a == "-e" || a == "--source":
			if i+1 < len(rest) {
				program = &rest[i+1]
				i++
			}
		case a == "-S" || a == "--sandbox":
			sandboxed = true
		case a == "-F" || a == "-v" || a == "--field-separator" || a == "--assign":
			i++
		case strings.HasPrefix(a, "-F") || strings.HasPrefix(a, "-v") || strings.HasPrefix(a, "--field-separator=") || strings.HasPrefix(a, "--assign="):
		case strings.HasPrefix(a, "-o") || strings.HasPrefix(a, "-p") || strings.HasPrefix(a, "-d") ||
			strings.HasPrefix(a, "--pretty-print") || strings.HasPrefix(a, "--profile") || strings.HasPrefix(a, "--dump-variables"):
			x.add(Ask, RuleAwkProgram, "this awk option writes a file")
		case len(a) > 1 && a[0] == '-':
			switch a {
			case "-b", "-c", "-n", "-N", "-O", "-P", "-r", "-t", "-V", "-M", "--posix", "--traditional",
				"--characters-as-bytes", "--non-decimal-data", "--use-lc-numeric", "--optimize",
				"--re-interval", "--lint", "--version", "--bignum", "--csv", "-k":
			default:
				x.add(Ask, RuleAwkProgram, "an awk option the policy does not know: "+a)
			}
		default:
			ops = append(ops, rest[i])
		}
	}
	if program == nil && !fromFile {
		if len(ops) == 0 {
			x.add(Ask, RuleAwkProgram, "awk with no program")
			return
		}
		program = &ops[0]
		ops = ops[1:]
	}
	x.add(Allow, RuleReadOnly, "transforms text")
	if fromFile {
		x.add(Ask, RuleAwkProgram, "an awk program read from a file cannot be judged")
	}
	if program != nil && !sandboxed {
		if !program.static {
			x.add(Ask, RuleShellDynamicArg, "an awk program built from an expansion")
		} else {
			for _, bad := range []string{"system", "getline", "ENVIRON", "PROCINFO", "@", "close", "extension", "|&"} {
				if strings.Contains(program.val, bad) {
					x.add(Ask, RuleAwkProgram, "the awk program uses "+quoteShort(bad)+", which can run commands, write files or read the environment")
					break
				}
			}
			x.awkFiles(program.val)                        // awkcmds.go: print > "FILE", getline < "FILE"
			for _, cmd := range awkCommands(program.val) { // awkcmds.go
				sub := x.cw.copy()
				x.c.shell(cmd, &sub, x.s.depth+1, "awk runs")
			}
			// print > "file" and print | "cmd" write files and run commands;
			// a > or | before the first print is a comparison or a regex.
			if i := strings.Index(program.val, "print"); i >= 0 && strings.ContainsAny(program.val[i:], ">|") {
				x.add(Ask, RuleAwkProgram, "the awk program redirects print, which can write files or run commands")
			}
		}
	}
	for _, w := range ops {
		if w.static && strings.Contains(w.val, "=") && validName(strings.SplitN(w.val, "=", 2)[0]) {
			continue // var=value operand
		}
		x.read(w)
	}
}

func sortCmd(x *cmdCtx, args []word) {
	x.add(Allow, RuleReadOnly, "sorts text")
	if hasOpt(args[1:], "", "--compress-program") {
		x.add(Deny, RuleToolExec, "sort --compress-program runs a program")
		return
	}
	for i, w := range args[1:] {
		if (w.val == "-o" || w.val == "--output") && i+2 < len(args) {
			x.write(args[i+2])
		} else if strings.HasPrefix(w.val, "-o") && len(w.val) > 2 && !strings.HasPrefix(w.val, "--") {
			x.write(word{val: w.val[2:], static: w.static})
		} else if (w.val == "-T" || w.val == "--temporary-directory") && i+2 < len(args) {
			x.write(word{val: args[i+2].val + "/glob-match", static: args[i+2].static})
		} else if strings.HasPrefix(w.val, "-") && !strings.HasPrefix(w.val, "--") {
			// -TDIR, -uT DIR: the temporary directory bundled with other
			// letters. The bundle ends at the first letter that takes a
			// value: in -tT, T is -t's separator, no directory.
			at := strings.IndexAny(w.val[1:], "kotST") + 1
			if at == 0 || (w.val[at] != 'T' && w.val[at] != 'o') {
				continue
			}
			suffix := "/glob-match"
			if w.val[at] == 'o' {
				suffix = ""
			}
			if at < len(w.val)-1 {
				x.write(word{val: w.val[at+1:] + suffix, static: w.static})
			} else if i+2 < len(args) {
				x.write(word{val: args[i+2].val + suffix, static: args[i+2].static})
			}
		}
	}
	for _, v := range longValues(args[1:], "output") {
		x.writeStr(v)
	}
	for _, v := range longValues(args[1:], "temporary-directory") {
		x.writeStr(v + "/glob-match")
	}
	for _, v := range longValues(args[1:], "files0-from") {
		x.readStr(v)
		x.add(Ask, RulePathUnknown, "sort reads the names of its inputs from a file")
	}
	for _, w := range operands(args[1:], "koStT", []string{"key", "output", "field-separator", "buffer-size", "temporary-directory", "parallel", "batch-size", "sort", "compress-program", "files0-from", "random-source"}) {
		x.read(w)
	}
}

func uniqCmd(x *cmdCtx, args []word) {
	x.add(Allow, RuleReadOnly, "filters repeated lines")
	ops := operands(args[1:], "fsw", []string{"skip-fields", "skip-chars", "check-chars", "all-repeated", "group"})
	if len(ops) > 0 {
		x.read(ops[0])
	}
	if len(ops) > 1 {
		x.write(ops[1])
	}
}

func xxdCmd(x *cmdCtx, args []word) {
	x.add(Allow, RuleReadOnly, "dumps bytes")
	ops := operands(args[1:], "cglsonC", nil)
	if len(ops) > 0 {
		x.read(ops[0])
	}
	if len(ops) > 1 {
		x.write(ops[1])
	}
}

func jqCmd(x *cmdCtx, args []word) {
	x.add(Allow, RuleReadOnly, "queries JSON")
	rest := args[1:]
	programDone := false
	for i := 0; i < len(rest); i++ {
		a := rest[i].val
		switch {
		case a == "--arg" || a == "--argjson":
			i += 2
		case a == "--slurpfile" || a == "--rawfile":
			if i+2 < len(rest) {
				x.read(rest[i+2])
			}
			i += 2
		case a == "-f" || a == "--from-file":
			// like awk -f and sed -f: the program is text nobody has seen
			// (a file of `env` lists every secret of the environment)
			x.add(Ask, RuleUnseenText, "a jq program read from a file cannot be judged")
			if i+1 < len(rest) {
				x.read(rest[i+1])
			}
			i++
			programDone = true
		case a == "-L":
			x.add(Ask, RuleUnknownCommand, "jq -L loads modules from a directory")
			i++
		case a == "--indent":
			i++
		case a == "--args" || a == "--jsonargs":
			return
		case a == "-i" || a == "--inplace":
			x.add(Ask, RuleFileWrite, "edits files in place")
		case len(a) > 1 && a[0] == '-':
		default:
			if !programDone {
				programDone = true
				if jqRisky(rest[i].val) {
					x.add(Ask, RuleEnvPrint, "the jq program reads the environment or loads modules")
				}
				continue
			}
			x.read(rest[i])
		}
	}
}

// jqRisky reports a jq program that reads the environment ($ENV, env),
// loads modules (import, include) or names its inputs: the builtins, not
// object keys spelled alike (.Imports, .env, ."env").
func jqRisky(p string) bool {
	return anyWord(p, func(tok string, prev byte) bool {
		switch {
		case prev == '$' && (tok == "ENV" || strings.HasPrefix(tok, "__")):
			return true
		case prev != '.' && prev != '$' && (tok == "env" || tok == "import" || tok == "include" || tok == "input_filename" || tok == "modulemeta" || tok == "get_search_list"):
			return true
		}
		return false
	})
}

// anyWord reports whether hit holds for a word of a jq or yq program (an
// identifier, with the byte before it), string literals skipped (keys
// like ."env" and text).
func anyWord(p string, hit func(tok string, prev byte) bool) bool {
	for i := 0; i < len(p); {
		c := p[i]
		if c == '"' {
			j := i + 1
			for j < len(p) && p[j] != '"' {
				if p[j] == '\\' {
					j++
				}
				j++
			}
			i = j + 1
			continue
		}
		if !isIdent(c) || c >= '0' && c <= '9' {
			i++
			continue
		}
		j := i
		for j < len(p) && isIdent(p[j]) {
			j++
		}
		prev := byte(0)
		if i > 0 {
			prev = p[i-1]
		}
		if hit(p[i:j], prev) {
			return true
		}
		i = j
	}
	return false
}
