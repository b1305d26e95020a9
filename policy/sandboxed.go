package policy

import (
	"path/filepath"
	"strings"
)

// Running the project's own code. Inside Sentinel's sandbox (writes only
// to the workspace, credentials hidden, network through the proxy) a
// script, generator or program that lives in the workspace is no riskier
// than `make test`, which runs the same code; with the sandbox off the
// policy is the only gate, so the same requests ask. A file this very line
// writes and then runs is judged on the text it writes (writethenrun.go).

// installedBinDirs hold programs a package manager put in the workspace;
// a program there is judged as the tool of that name.
var installedBinDirs = []string{"node_modules/.bin", "vendor/bin", ".venv/bin", "venv/bin", "env/bin", ".env/bin", ".virtualenv/bin"}

// pathProgram judges a program named by a path that is not a system
// program: ./scripts/build.sh, .venv/bin/python, node_modules/.bin/jest.
func (x *cmdCtx) pathProgram(args []word, depth int) {
	name := args[0]
	paths := x.resolve(name)
	if paths == nil {
		x.add(Ask, RulePathProgram, "runs "+name.val+", a path-qualified program, which is not the program of the same name")
		return
	}
	for _, p := range paths {
		if x.c.builtHere(p) && x.c.sandbox && x.c.privateTemp(p) {
			// Built by this line into the sandbox's private temp dir.
			x.ranWritten(name, nil)
			return
		}
		if base, ok := resolvedProgram(p); ok && x.c.sandbox {
			// A virtualenv's python is python on the project's packages.
			x.command(append([]word{{val: base, static: true}}, args[1:]...), depth+1)
			return
		}
		if !x.c.ownPlace(p) || p == x.c.ws { // privatetemp.go: /tmp/app in the sandbox
			x.add(Ask, RulePathProgram, "runs "+name.val+", a path-qualified program, which is not the program of the same name")
			x.pathNamedDeny(args) // innerdeny.go: /usr/local/bin/npm publish
			return
		}
	}
	base := filepath.Base(name.val)
	if tool, ok := standInTool(x.c, paths, base); ok && !x.c.sandbox {
		if !x.ranWritten(name, nil) { // projecttools.go: ./gradlew is gradle
			x.command(append([]word{{val: tool, static: true}}, args[1:]...), depth+1)
		}
		return
	}
	_, known := handlerFor(base)
	installed := inInstalledBin(x.c, paths)
	if known && !installed && !binstub(x.c, paths) && !(x.c.sandbox && inBuildOutput(x.c, paths)) && !x.ranWritten(name, nil) {
		// ./cat, bin/ls: a workspace program named like one the policy
		// knows is not that program; a person should see it.
		x.add(Ask, RulePathProgram, "runs "+name.val+", a workspace program named like "+base+", which it is not")
		return
	}
	if !installed && x.shebangOff(name, paths, args[1:], depth) {
		return // shebangoff.go: ./test.sh with #!/bin/sh is sh ./test.sh
	}
	// offcode.go: a program a package manager installed from the
	// project's manifest (vendor/bin/php-cs-fixer) runs off as its
	// test runner does; other workspace programs ask off.
	offOK := installed && !x.writtenBefore() || !installed && x.builtProgramOff(paths) && plainProgramArgs(args[1:]) // buildoutput_off.go
	if !x.runFileOff(name, "runs "+name.val, RulePathProgram, "runs "+name.val+", a program of the workspace, and the sandbox is off", offOK) {
		return
	}
	if known && installed {
		x.command(append([]word{{val: base, static: true}}, args[1:]...), depth+1)
	}
}

// inInstalledBin reports whether every path is in a package manager's bin
// directory of the workspace.
func inInstalledBin(c *checkEnv, paths []string) bool {
	for _, p := range paths {
		dir := rel(filepath.Dir(p), c.ws)
		ok := false
		for _, b := range installedBinDirs {
			if dir == b || strings.HasSuffix(dir, "/"+b) {
				ok = true
			}
		}
		if !ok {
			return false
		}
	}
	return true
}

// runFile judges running the workspace file w (a script or program):
// text this line wrote is judged as shell; otherwise, sandboxed, the
// project's own code runs, and unsandboxed it asks with rule and reason.
// It reports whether the run itself was allowed (so far).
func (x *cmdCtx) runFile(w word, what, rule, reason string) bool {
	return x.runFileOff(w, what, rule, reason, false)
}

// runFileOff is runFile; offOK allows the run with the sandbox off too
// (runScript in offcode.go).
func (x *cmdCtx) runFileOff(w word, what, rule, reason string, offOK bool) bool {
	if x.ranWritten(w, nil) {
		return false
	}
	paths := x.resolve(w)
	if paths == nil {
		x.add(Ask, RulePathUnknown, what+": a file whose location cannot be known before it runs")
		return false
	}
	for _, p := range paths {
		if !x.c.ownPlace(p) {
			x.add(Ask, rule, what+", outside the workspace")
			return false
		}
		if f := x.c.judgePath(p, false); f.d > Allow {
			x.addF(f)
			return false
		}
	}
	if !x.c.sandbox && !offOK {
		x.add(Ask, rule, reason)
		return false
	}
	if !x.c.sandbox {
		// offcode.go: a script run through a known interpreter, which
		// the person runs unasked as `make test` runs it.
		x.add(Allow, RuleSandboxCode, what+", the project's own code, as `make test` runs it (--sandbox off)")
		return true
	}
	x.add(Allow, RuleSandboxCode, what+", the project's own code, inside the sandbox")
	return true
}

// sandboxedCode allows what inside the sandbox and asks (rule, reason)
// without it.
func (x *cmdCtx) sandboxedCode(what, rule, reason string) {
	if x.c.sandbox {
		x.add(Allow, RuleSandboxCode, what+", inside the sandbox")
		return
	}
	x.add(Ask, rule, reason)
}

// inlineCode judges a snippet given to an interpreter (python -c, node
// -e, python - <<'EOF'). Inside the sandbox a snippet that only computes
// and reads is allowed; one that spawns programs, reaches the network,
// deletes files, reads the environment or evaluates more text asks, and a
// shell command spelled in it plainly is judged as shell.
func (x *cmdCtx) inlineCode(name, code string) {
	wroteBefore := x.writtenBefore() // before codeRisks records the code's own writes
	x.codeRisks(name, code)
	if dotenvCode(code) { // secretprinters.go
		x.add(Ask, RulePathReadSecret, name+" code loads a dotenv file, whose values it can print: a read of secrets")
	}
	if codeReadsEnv(code) { // inlineenv.go
		x.add(Ask, RuleEnvPrint, name+" code reads the environment: the agent's own keys would reach the coder's screen")
		return
	}
	if !x.c.sandbox {
		if x.offComputeOnly(name, code, wroteBefore) || x.offImportsOnly(name, code, wroteBefore) { // offinline.go, inlineimports_off.go
			return
		}
		x.add(Ask, RuleInterpInline, name+" runs inline code")
		return
	}
	if tok := riskyCodeToken(x.literalWrites(code)); tok != "" { // codewrites.go
		x.add(Ask, RuleInterpInline, name+" runs inline code that uses "+quoteShort(tok))
		return
	}
	x.add(Allow, RuleSandboxCode, name+" runs inline code that only computes and reads, inside the sandbox")
}

// codeRisks judges what a snippet in any language does that the shell
// and path policies know how to judge: every shell string it hands to a
// shell is judged as that shell line, every file it deletes as a write,
// and a secret it sends as exfiltration. Every interpreter's inline code
// goes through it, so `system("rm -rf ~")` in R, Julia's run(`rm -rf ~`)
// and Python's os.system("rm -rf ~") are one verdict.
func (x *cmdCtx) codeRisks(name, code string) {
	cmds := spawnedShell(code)
	if shellQuoting(name) {
		cmds = append(cmds, shellStringsInCode(perlQuotedArgs(code))...) // codeshell.go: `…`, qx{…}, %x(…), system "…"; perlquote.go: system q{…}
	}
	cmds = append(cmds, jsShellTemplates(name, code)...) // inlinerunners.go: Bun.$`…`, zx $`…`
	for _, dec := range decodedCode(code) {              // inlinerunners.go: exec(b64decode("…"))
		x.codeRisks(name, dec)
	}
	for _, cmd := range cmds {
		sub := x.cw.copy()
		x.c.shell(cmd, &sub, x.s.depth+1, name+" spawns")
	}
	if fetchesAndEvals(code) { // fetcheval.go
		x.add(Deny, RuleInterpInline, name+" code fetches code from the network and runs it, as curl | sh")
	}
	x.codeDeletes(code)
	x.codeWriteTargets(code) // codewritepaths.go: fs.writeFileSync('.git/hooks/x', …) in any language
	x.codeReadTargets(code)  // codewritepaths.go: readFileSync(homedir()+'/.ssh/id_rsa')
	x.codeExfil(name, code)
	x.codeEnvExfil(name, code)                      // codeenvsend.go: os.environ['API_KEY'] and urlopen
	if codeReadsEnv(code) && codeWritesFile(code) { // inlineenv.go
		// As `env > out.txt`: the listing, secrets included, in a file.
		x.add(Deny, RuleEnvDumpSink, name+" code writes the environment, secrets included, into a file")
	}
}

// riskyTokens are capabilities beyond computing and reading files.
var riskyTokens = []string{
	"system", "popen", "subprocess", "spawn", "exec", "fork", "child_process", "eval", "compile(",
	"__import__", "importlib", "import(", "ctypes", "cffi", "socket", "http", "urllib", "request", "fetch",
	"net.", "dgram", "dns", "tls", "ftp", "smtp", "telnet", "websocket", "remove", "unlink", "rmtree",
	"rmdir", "rmsync", "rename", "shutil", "truncate", "chmod", "chown", "symlink", "link(", "environ",
	"getenv", "process.env", "env[", "expanduser", "homedir", "home", "~", "/etc", "/root", ".ssh", ".aws",
	".env", "secret", "token", "password", "credential", "keychain", "open(", "write", "appendfile",
	"createwritestream", "fs.w", "fs.a", "fs.c", "fs.r", "fs.promises", "pickle", "marshal", "base64",
	"codecs", "decode", "fromcharcode", "atob", "buffer.from", "vm.", "worker", "cluster", "inspector",
	"process.binding", "dlopen", "os.", "sys.modules", "setattr", "getattr", "globals", "builtins",
	"\\x", "\\u", "chr(", "ord(", "`", "$(", "kill", "signal", "pty", "sqlite", "tempfile", "mmap",
	"process", "reflect", "globalthis", "global[", "global.", "with(", "with (", // nodeprocess.go
	"file.rm", "rm_rf", // elixir: File.rm, File.rm_rf!
}

// readOnlyCode are the uses of the tokens above that only read.
var readOnlyCode = []string{"open(", "fs.r", "os."}

// riskyCodeToken returns the first risky capability the code names.
func riskyCodeToken(code string) string {
	low := strings.ToLower(code)
	for _, t := range riskyTokens {
		if strings.Contains(low, t) && !benignUse(low, t) && (!secretWord(t) || namesSecretWord(code, t)) { // inlinenames.go
			return t
		}
	}
	return ""
}

// benignUse allows the read-only forms: open(path) with no mode or "r",
// fs.readFileSync, os.path.
func benignUse(low, tok string) bool {
	switch tok {
	case "process":
		return benignProcess(low)
	case "open(":
		for _, seg := range strings.Split(low, "open(")[1:] {
			end := strings.IndexByte(seg, ')')
			if end < 0 || !readOnlyOpenArgs(seg[:end]) { // openmodes.go
				return false
			}
		}
		return true
	case "fs.r":
		rest := low
		for {
			i := strings.Index(rest, "fs.r")
			if i < 0 {
				return true
			}
			rest = rest[i+4:]
			if !strings.HasPrefix(rest, "eadfilesync") && !strings.HasPrefix(rest, "eaddirsync") && !strings.HasPrefix(rest, "eadfile(") && !strings.HasPrefix(rest, "eaddir(") {
				return false
			}
		}
	case "os.":
		rest := low
		for {
			i := strings.Index(rest, "os.")
			if i < 0 {
				return true
			}
			if i > 0 && isIdent(rest[i-1]) {
				rest = rest[i+3:]
				continue
			}
			rest = rest[i+3:]
			if !strings.HasPrefix(rest, "path.") && !strings.HasPrefix(rest, "listdir(") && !strings.HasPrefix(rest, "getcwd(") && !strings.HasPrefix(rest, "sep") && !strings.HasPrefix(rest, "walk(") && !strings.HasPrefix(rest, "scandir(") && !strings.HasPrefix(rest, "cpu_count(") {
				return false
			}
		}
	}
	return false
}

func isIdent(c byte) bool {
	return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}

// spawnedShell finds shell commands spelled as a plain string literal in
// the common spawning calls: os.system('…'), subprocess.run('…',
// shell=True), execSync("…"), exec("…"), system("…") in R, Perl and Ruby,
// Julia's run(`…`), R's system2("cmd", c("arg", …)).
func spawnedShell(code string) []string {
	var out []string
	eachCall(code, []string{"system(", "popen(", "execsync(", "exec(", "run(", "call(", "check_output(", "check_call(", "spawnsync(", "getoutput(", "getstatusoutput(", "spawn(", "execfilesync(", "execfile(", "capture2(", "capture3(", "os.execute(", "shell_exec(", "passthru(", "proc_open(", "pcntl_exec(", "system.cmd(", "os:cmd("}, func(args string) bool {
		// One shell line, or an argv list (homeref.go): system("rm",
		// "-rf", $ENV{HOME}) runs rm -rf ~.
		if line, ok := spawnLine(args); ok && strings.TrimSpace(line) != "" {
			out = append(out, line)
		}
		return len(out) <= 16
	})
	// R's system2(command, args) pastes its words into one shell line:
	// system2("rm", c("-rf", "~")) runs `rm -rf ~`.
	eachCall(code, []string{"system2("}, func(args string) bool {
		if end := matchingParen(args); end >= 0 {
			args = args[:end]
		}
		if lits := allLiterals(args); len(lits) > 0 {
			out = append(out, strings.Join(lits, " "))
		}
		return len(out) <= 16
	})
	return out
}

// eachCall calls f with the text after every case-insensitive occurrence of
// each of calls in code, until f returns false. A call that begins with a
// name is found only where the name begins (after no identifier byte):
// unlink( is found after a tab, a brace, a newline or the start of the
// code, never inside lo_unlink(.
func eachCall(code string, calls []string, f func(args string) bool) {
	low := strings.ToLower(code)
	for _, call := range calls {
		for from := 0; ; {
			i := strings.Index(low[from:], call)
			if i < 0 {
				break
			}
			at := from + i
			from = at + len(call)
			if isIdent(call[0]) && at > 0 && isIdent(low[at-1]) {
				continue
			}
			if !f(code[from:]) {
				return
			}
		}
	}
}

// deleteCalls are the common ways code deletes files and trees.
var deleteCalls = []string{"rmtree(", "rmsync(", "rmdirsync(", "unlinksync(", "os.remove(",
	"rmdir(", "removedirs(", "rimraf(", "remove_dir_all(", "file.delete(", "fileutils.rm_rf(", "fileutils.rm_r(",
	"os.removeall(", "unlink(", "file.remove(", "rm(", // R unlink/file.remove, Julia rm and Base.rm, fs.rm
	"unlink ", "rmtree ", "remove_tree(", "remove_tree ", "fileutils.rm_rf ", "fileutils.rm_r ", "fileutils.rm ",
	"removesync(", "deno.remove(", "rm_rf!(", "rm_rf(", "rm!("} // Deno.removeSync, Elixir File.rm_rf! // Perl and Ruby without parentheses

// codeDeletes judges the targets of deletions spelled plainly in code as
// writes: a literal path, or the home directory however it is named.
func (x *cmdCtx) codeDeletes(code string) {
	eachCall(code, deleteCalls, func(args string) bool {
		arg := args
		if end := matchingParen(args); end >= 0 {
			arg = args[:end]
		}
		la := strings.ToLower(arg)
		if x.c.home != "" && (strings.Contains(la, "expanduser") || strings.Contains(la, "homedir") ||
			strings.Contains(la, "home()") || strings.Contains(la, "home\"") || strings.Contains(la, "'home'") ||
			strings.Contains(la, "\"~") || strings.Contains(la, "'~") || codeNamesHome(arg)) { // homeref.go
			x.writeStr(x.c.home)
		}
		if lit, ok := firstLiteral(arg); ok && lit != "" {
			x.writeStr(lit)
		}
		return true
	})
}

// codeExfil denies code that both reads a secret or credential file
// named plainly and talks to the network, and a reverse shell.
func (x *cmdCtx) codeExfil(name, code string) {
	low := strings.ToLower(code)
	if strings.Contains(low, "socket") && (strings.Contains(low, "dup2") || strings.Contains(low, "pty.spawn") ||
		strings.Contains(low, "/bin/sh") || strings.Contains(low, "/bin/bash") || strings.Contains(low, "child_process")) {
		x.add(Deny, RuleNetExfil, name+" code connects a shell to the network (a reverse shell)")
		return
	}
	net := false
	for _, t := range []string{"http", "socket", "urlopen", "requests.", "fetch(", "net.", "curl", "smtp", "ftp"} {
		if strings.Contains(low, t) {
			net = true
		}
	}
	if !net {
		return
	}
	for _, lit := range allLiterals(code) {
		if lit == "" || len(lit) > 256 {
			continue
		}
		p := lit
		if strings.HasPrefix(p, "~/") && x.c.home != "" {
			p = x.c.home + p[1:]
		}
		base := filepath.Base(p)
		sub := &cmdCtx{c: x.c, s: x.s, cw: x.cw, part: x.part}
		sub.readStr(p)
		if secretName(base) || sub.f.rule == RulePathCredential || sub.f.rule == RulePathReadSecret {
			x.add(Deny, RuleNetExfil, name+" code reads "+quoteShort(lit)+" and talks to the network")
			return
		}
	}
}

// firstLiteral returns the first quoted string in s.
func firstLiteral(s string) (string, bool) {
	l := allLiterals(s)
	if len(l) == 0 {
		return "", false
	}
	return l[0], true
}

// allLiterals returns the single- or double-quoted strings in s.
func allLiterals(s string) []string {
	var out []string
	for i := 0; i < len(s); i++ {
		q := s[i]
		if q != '\'' && q != '"' {
			continue
		}
		end := strings.IndexByte(s[i+1:], q)
		if end < 0 {
			break
		}
		out = append(out, s[i+1:i+1+end])
		i += end + 1
		if len(out) > 64 {
			break
		}
	}
	return out
}

// buildOutputDirs are the folders builds put their programs in: a
// program there (build/test, target/debug/ls) is the build's product,
// however it is named, not a system program a person could mistake it for.
var buildOutputDirs = wordSet{words: []string{"build", "target", "out", "dist", "obj", "_build", "builddir"}}

// inBuildOutput reports whether every path lies below a build output
// folder of the workspace (build/test, build/Debug/x, cmake-build-debug/x).
func inBuildOutput(c *checkEnv, paths []string) bool {
	for _, p := range paths {
		r := rel(p, c.ws)
		dir, _, ok := strings.Cut(r, "/")
		if !ok || !within(p, c.ws) || !(buildOutputDirs.has(dir) || strings.HasPrefix(dir, "cmake-build-")) {
			return false
		}
	}
	return true
}
