package policy

import (
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// A program's "print everything" mode prints the environment, secrets
// included: env and printenv, set, declare/typeset/export -p, compgen -v,
// make -p (its data base holds every environment variable), ps e,
// /proc/*/environ, jq's env and $ENV, cmake -E environment, php -i, mvn
// help:system. On its own it asks (env.print); its output must never reach
// a file or the network (issue 32: `make -p -f /dev/null | grep KEY >
// leaked.txt` wrote ANTHROPIC_API_KEY into the project). judgeDumps looks
// at the shape of the whole line, after the commands are judged one by
// one: a dump under a statement that writes a file, a dump piped into a
// later stage that writes or sends, or a dump substituted into a command
// that writes or sends is denied.

// RuleEnvDumpSink: the environment printed into a file or onto the network.
const RuleEnvDumpSink = "env.dump-to-sink"

// dumpSinks are programs that write what they read, or send it, wherever
// they stand in a pipeline or whatever they are given in a substitution.
var dumpSinks = wordSet{words: []string{"tee", "dd", "sponge", "split", "csplit", "cp", "install", "mail", "mailx",
	"sendmail", "logger", "xclip", "xsel", "pbcopy", "wl-copy", "git", "gh", "glab", "aws", "gsutil", "gcloud", "az",
	"rclone", "s3cmd", "scp", "sftp", "ftp", "tftp", "ssh", "rsync", "nc", "ncat", "netcat", "socat", "telnet",
	"openssl", "curl", "wget", "http", "https", "xh", "httpie", "aria2c", "xargs", "parallel", "docker", "podman",
	"kubectl", "sh", "bash", "zsh", "dash", "ksh", "fish", "python", "python3", "node", "perl", "ruby", "php"}}

// judgeDumps adds a part for every dump in f: ask on its own, deny when
// what it prints is written or sent.
func (c *checkEnv) judgeDumps(s *src, f *syntax.File, pipes map[*syntax.BinaryCmd]*pipeScreen) {
	if len(pipes) == 0 && (!mayDumpText(s.text) || !c.hasDump(f)) {
		return
	}
	syntax.Walk(f, func(n syntax.Node) bool {
		switch x := n.(type) {
		case *syntax.CallExpr:
			if what, ok := c.dumpCall(x); ok && !c.sandboxEnvList(what) {
				c.addPart(Part{Text: s.slice(x), Via: "dump", Decision: Ask, Rule: RuleEnvPrint,
					Reason: what + " prints the environment, secrets included"})
			} // inside the sandbox env and printenv judge themselves (envListed)
		case *syntax.DeclClause:
			if what, ok := dumpDecl(x); ok {
				c.addPart(Part{Text: s.slice(x), Via: "dump", Decision: Ask, Rule: RuleEnvPrint,
					Reason: what + " prints shell variables, secrets included"})
			}
		case *syntax.Stmt:
			if c.writesFile(x.Redirs) && c.hasDump(x.Cmd) {
				c.addPart(Part{Text: s.slice(x), Via: "dump", Decision: Deny, Rule: RuleEnvDumpSink,
					Reason: "writes the environment, secrets included, into a file"})
			} else if call, ok := x.Cmd.(*syntax.CallExpr); ok && c.isSink(call) && c.hasDump(x) && !c.inlineDumpOnly(call) {
				c.addPart(Part{Text: s.slice(x), Via: "dump", Decision: Deny, Rule: RuleEnvDumpSink,
					Reason: "hands the environment, secrets included, to a program that writes or sends it"})
			}
		case *syntax.BinaryCmd:
			if x.Op != syntax.Pipe && x.Op != syntax.PipeAll {
				return true
			}
			p := pipes[x] // envscreen.go: read once, before the line was judged
			if p == nil {
				return true // a pipeline's inner node, or no listing in it
			}
			stages := p.stages
			for i := range stages {
				if !p.dump[i] {
					continue
				}
				for _, later := range stages[i+1:] {
					call, ok := later.Cmd.(*syntax.CallExpr)
					if c.writesFile(later.Redirs) || ok && c.isSink(call) {
						c.addPart(Part{Text: s.slice(x), Via: "dump", Decision: Deny, Rule: RuleEnvDumpSink,
							Reason: "pipes the environment, secrets included, into a file or a program that writes or sends it"})
						return false
					}
				}
				if c.sandbox && !p.hides[i+1] {
					c.addPart(Part{Text: s.slice(x), Via: "dump", Decision: Ask, Rule: RuleEnvPrint,
						Reason: "searches the environment with a filter that could show a secret-looking variable's value"})
				}
				break
			}
		}
		return true
	})
}

// pipeStages flattens a pipeline into its stages, in order.
func pipeStages(b *syntax.BinaryCmd) []*syntax.Stmt {
	var out []*syntax.Stmt
	var add func(st *syntax.Stmt)
	add = func(st *syntax.Stmt) {
		if bc, ok := st.Cmd.(*syntax.BinaryCmd); ok && (bc.Op == syntax.Pipe || bc.Op == syntax.PipeAll) && len(st.Redirs) == 0 {
			add(bc.X)
			add(bc.Y)
			return
		}
		out = append(out, st)
	}
	add(b.X)
	add(b.Y)
	return out
}

// hasDump reports a dump anywhere under n.
func (c *checkEnv) hasDump(n syntax.Node) bool {
	if n == nil {
		return false
	}
	found := false
	syntax.Walk(n, func(n syntax.Node) bool {
		if found {
			return false
		}
		switch x := n.(type) {
		case *syntax.CallExpr:
			_, found = c.dumpCall(x)
		case *syntax.DeclClause:
			_, found = dumpDecl(x)
		}
		return !found
	})
	return found
}

// writesFile reports an output redirect to a file (not /dev/null, not a
// descriptor).
func (c *checkEnv) writesFile(rs []*syntax.Redirect) bool {
	for _, r := range rs {
		switch r.Op {
		case syntax.RdrOut, syntax.AppOut, syntax.RdrAll, syntax.AppAll, syntax.ClbOut, syntax.RdrInOut:
		case syntax.DplOut:
			if w := decodeWord(r.Word, c.home); w.static && (w.val == "-" || isDigits(w.val)) {
				continue
			}
		default:
			continue
		}
		w := decodeWord(r.Word, c.home)
		if w.static && (w.val == "/dev/null" || w.val == "/dev/stdout" || w.val == "/dev/stderr" || w.val == "/dev/tty") {
			continue
		}
		return true
	}
	return false
}

// isSink reports a command that writes or sends what it is given.
func (c *checkEnv) isSink(call *syntax.CallExpr) bool {
	argv := c.staticArgv(call)
	if len(argv) == 0 {
		return len(call.Args) > 0 // a command that cannot be known
	}
	argv = stripDumpWrappers(argv)
	if len(argv) == 0 {
		return false
	}
	argv, ambiguous := stageArgv(argv) // stageargv.go
	return dumpSinks.has(argv[0]) || ambiguous || stageWritesFile(argv)
}

// staticArgv decodes a call's words, the program resolved; nil when a word
// cannot be known.
func (c *checkEnv) staticArgv(call *syntax.CallExpr) []string {
	var argv []string
	for _, a := range call.Args {
		w := decodeWord(a, c.home)
		if !w.static && len(argv) == 0 {
			// $(echo make) -p is make -p (cmdword.go), for every reader
			// of a call's words, not only the command's own judgment.
			ws, ok := c.substCommandWord(a)
			if !ok {
				return nil
			}
			argv, _ = argvOf(ws)
			continue
		}
		argv = append(argv, w.val)
	}
	if len(argv) > 0 {
		if b, ok := resolvedProgram(argv[0]); ok {
			argv[0] = b
		}
	}
	return argv
}

// stripDumpWrappers drops the wrappers that run their arguments as a
// command: command, builtin, exec, nohup, time, nice, timeout, stdbuf,
// and env with a command.
func stripDumpWrappers(argv []string) []string {
	for len(argv) > 0 {
		switch k := wrapKinds.get()[argv[0]]; {
		case k == wrapPlain || k == wrapCommand || k == wrapBuiltin || k == wrapExec:
			// the one wrapper table (wrappers.go): nice, timeout, flock, …
			if r, _ := readWrapper(argv[0], wordsOf(argv[1:])); r.inner() != nil {
				argv = vals(r.inner())
				continue
			}
			argv = argv[1:] // an option it does not know: skip the options
			for len(argv) > 0 && strings.HasPrefix(argv[0], "-") {
				argv = argv[1:]
			}
			continue
		case argv[0] == "sudo" || argv[0] == "doas":
			argv = argv[1:]
			for len(argv) > 0 && strings.HasPrefix(argv[0], "-") {
				argv = argv[1:]
			}
			continue
		}
		switch argv[0] {
		case "find":
			// find … -exec CMD … ; runs CMD (the dump checks see it)
			k := 1
			for k < len(argv) && argv[k] != "-exec" && argv[k] != "-execdir" && argv[k] != "-ok" && argv[k] != "-okdir" {
				k++
			}
			if k+1 >= len(argv) {
				return argv
			}
			inner := argv[k+1:]
			for j, a := range inner {
				if a == ";" || a == "+" {
					inner = inner[:j]
					break
				}
			}
			argv = inner
		case "xargs":
			rest := argv[1:]
			for len(rest) > 0 && strings.HasPrefix(rest[0], "-") {
				switch rest[0] {
				case "-I", "-n", "-L", "-P", "-d", "-E", "-s", "-a", "--arg-file", "--delimiter", "--max-args", "--max-procs", "--max-lines", "--replace":
					if len(rest) > 1 {
						rest = rest[1:]
					}
				}
				rest = rest[1:]
			}
			if len(rest) == 0 {
				return argv
			}
			argv = rest
		case "env":
			rest := argv[1:]
			for len(rest) > 0 && (strings.HasPrefix(rest[0], "-") || strings.Contains(rest[0], "=")) {
				if rest[0] == "-u" || rest[0] == "-C" || rest[0] == "--unset" || rest[0] == "--chdir" {
					rest = rest[1:]
				}
				if len(rest) > 0 {
					rest = rest[1:]
				}
			}
			if len(rest) == 0 {
				return argv // env itself prints
			}
			argv = rest
		default:
			return argv
		}
	}
	return argv
}

// dumpCall reports a simple command that prints the environment, and
// what it is.
// A call is read once per Check (c.dumps): the statement, the pipeline and
// the call itself all ask about it.
func (c *checkEnv) dumpCall(call *syntax.CallExpr) (string, bool) {
	d := c.dumpOf(call)
	return d.what, d.ok
}

// dumpMemo is what dumpCall found for one call.
type dumpMemo struct {
	what       string
	ok, inline bool // inline: an interpreter's own snippet reads the environment
}

// dumpOf reads call as a dump, once per Check.
func (c *checkEnv) dumpOf(call *syntax.CallExpr) dumpMemo {
	if !mayDump(call) {
		return dumpMemo{}
	}
	if d, ok := c.dumps[call]; ok {
		return d
	}
	var d dumpMemo
	d.what, d.ok, d.inline = c.dumpArgvInline(c.staticArgv(call))
	if c.dumps == nil {
		c.dumps = map[*syntax.CallExpr]dumpMemo{}
	}
	c.dumps[call] = d
	return d
}

// dumpArgv is dumpCall on an argv already read (a command a wrapper builds
// from its arguments: nix develop -c make -p).
func (c *checkEnv) dumpArgv(argv []string) (string, bool) {
	what, ok, _ := c.dumpArgvInline(argv)
	return what, ok
}

// dumpArgvInline is dumpArgv, also reporting whether the dump is an
// interpreter's inline snippet (inlineenv.go).
func (c *checkEnv) dumpArgvInline(argv []string) (string, bool, bool) {
	what, ok := c.dumpArgvAll(argv)
	return what, ok, ok && strings.HasSuffix(what, inlineDumpSuffix)
}

func (c *checkEnv) dumpArgvAll(argv []string) (string, bool) {
	if len(argv) == 0 {
		return "", false
	}
	argv = stripDumpWrappers(argv)
	if len(argv) == 0 {
		return "", false
	}
	if what, ok := inlineEnvDump(argv); ok { // inlineenv.go
		return what, true
	}
	if what, ok := awkEnvDump(argv); ok { // secretsinks.go
		return what, true
	}
	prog, rest := argv[0], argv[1:]
	for _, a := range rest {
		if strings.HasPrefix(a, "/proc/") && strings.HasSuffix(a, "/environ") {
			return prog + " " + a, true
		}
	}
	switch prog {
	case "env":
		return "env", true // stripDumpWrappers left it: no command follows
	case "printenv":
		for _, a := range rest {
			if !strings.HasPrefix(a, "-") && !benignParams.has(a) {
				return "printenv " + a, true
			}
		}
		if len(operands(wordsOf(rest), "", nil)) == 0 {
			return "printenv", true
		}
	case "set":
		if len(rest) == 0 {
			return "set", true
		}
	case "declare", "typeset", "export", "readonly", "local":
		// as a command (builtin export -p, {decl,}are -p): -p, or no names
		names := 0
		for _, a := range rest {
			if strings.HasPrefix(a, "-") || strings.HasPrefix(a, "+") {
				if strings.Contains(a, "p") {
					return prog + " " + a, true
				}
				continue
			}
			names++
		}
		if names == 0 {
			return prog, true
		}
	case "compgen":
		for i, a := range rest {
			if a == "-v" || a == "-e" || (a == "-A" && i+1 < len(rest) && (rest[i+1] == "variable" || rest[i+1] == "export")) {
				return "compgen " + a, true
			}
		}
	case "make", "gmake":
		for _, a := range rest {
			if a == "--" {
				break
			}
			if a == "--print-data-base" || strings.HasPrefix(a, "--print-d") ||
				len(a) > 1 && a[0] == '-' && a[1] != '-' && strings.IndexByte(shortFlags(a), 'p') >= 0 {
				return prog + " -p", true
			}
		}
	case "ps":
		// BSD-style options come first, without a dash: e shows environments
		if len(rest) > 0 && rest[0] != "" && !strings.HasPrefix(rest[0], "-") && strings.Trim(rest[0], "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ") == "" &&
			strings.IndexByte(rest[0], 'e') >= 0 {
			return "ps " + rest[0], true
		}
	case "jq", "gojq", "yq":
		for _, a := range rest {
			if !strings.HasPrefix(a, "-") && (strings.Contains(a, "$ENV") || containsWord(a, "env")) {
				return prog + " " + quoteShort(a), true
			}
		}
	case "cmake":
		if len(rest) >= 2 && rest[0] == "-E" && rest[1] == "environment" {
			return "cmake -E environment", true
		}
	case "php":
		if len(rest) > 0 && (rest[0] == "-i" || rest[0] == "--info") {
			return "php -i", true
		}
	case "mvn", "mvnw":
		for _, a := range rest {
			if a == "help:system" {
				return "mvn help:system", true
			}
		}
	case "systemctl", "tmux":
		for _, a := range rest {
			if a == "show-environment" {
				return prog + " show-environment", true
			}
		}
	}
	return "", false
}

func wordsOf(vs []string) []word {
	out := make([]word, len(vs))
	for i, v := range vs {
		out[i] = word{val: v, static: true}
	}
	return out
}
