package policy

import "strings"

// The files inline code writes, in every language and both sandbox
// modes (issue 32): fs.writeFileSync('.git/hooks/pre-commit', …),
// File.write(".git/hooks/pre-push", …), file_put_contents(…),
// Deno.writeTextFileSync(…), Bun.write(…), open('~/.bashrc', 'a'),
// Perl's open(F, '>path') and io.open(p, 'w') are writes of that path,
// judged as a file write tool's would be: inside the workspace as the
// path rules say, a run-later file, .git or outside the workspace denied
// or asked. A target built from the home directory ("~" + '/.bashrc') is
// that path under the home; one the code computes otherwise is left to
// the inline-code judgment, which asks.

// writeCalls write the file their first argument names.
var writeCalls = []string{"writefilesync(", "appendfilesync(", "writefile(", "appendfile(", "createwritestream(",
	"writetextfilesync(", "writetextfile(", "bun.write(", "file.write(", "io.write(", "file_put_contents(",
	"file.binwrite(", "io.binwrite(", "write_file("}

// openCalls open a file; they write only with a writing mode.
var openCalls = []string{"open(", "fopen("} // File.open(, io.open( and os.open( are open( too

// codeWriteTargets judges the literal targets of the write calls in code.
func (x *cmdCtx) codeWriteTargets(code string) {
	judge := func(piece string) {
		v, lit := codeStringValue(strings.TrimSpace(piece)) // homeref.go
		if strings.Contains(v, unknownCodeValue) || v == "" {
			return
		}
		if !lit && !strings.HasPrefix(v, "~") {
			return
		}
		if strings.HasPrefix(v, "~") && x.c.home != "" {
			v = x.c.home + v[1:]
		}
		x.writeStr(v)
	}
	eachCall(code, writeCalls, func(args string) bool {
		if end := closingParen(args); end >= 0 {
			args = args[:end]
		}
		if pieces := splitCodeArgs(args); len(pieces) > 0 && stringish(pieces[0]) {
			judge(pieces[0])
		}
		return true
	})
	eachCall(code, openCalls, func(args string) bool {
		if end := closingParen(args); end >= 0 {
			args = args[:end]
		}
		pieces := splitCodeArgs(args)
		var target string
		writing := false
		for _, p := range pieces {
			p = strings.TrimSpace(p)
			v, lit := codeStringValue(p)
			switch {
			case lit && writeMode(v):
				writing = true
			case lit && (strings.HasPrefix(v, ">") || strings.HasPrefix(v, "+>")) && strings.TrimLeft(v, "+> ") != "":
				// Perl's open(F, ">path"): the mode and the path in one.
				writing, target = true, "'"+strings.ReplaceAll(strings.TrimLeft(v, "+> "), "'", "")+"'"
			case strings.HasPrefix(p, "mode") && strings.Contains(p, "="):
				_, m, _ := strings.Cut(p, "=")
				if mv, ok := codeStringValue(strings.TrimSpace(m)); ok && writeMode(mv) {
					writing = true
				}
			case target == "" && stringish(p):
				target = p // the first string is the path: open(my $f, '>', 'path') too
			}
		}
		if writing && target != "" {
			judge(target)
		}
		return true
	})
}

// writeMode reports a mode string that opens a file for writing.
func writeMode(m string) bool {
	switch strings.Trim(m, "bt+") {
	case "w", "a", "x", ">", ">>", "wb", "ab", "w+", "a+", "r+":
		return true
	}
	return false
}

// readCalls read the file their first argument names.
var readCalls = []string{"readfilesync(", "readfile(", "file.read(", "io.read(", "file_get_contents(", "readtextfilesync(",
	"readtextfile(", "bun.file(", "file.readlines(", "io.readlines(", "createreadstream(", "read_file(", "open(", "fopen("}

// codeReadTargets denies code that reads a secret or credential file it
// names, as `cat ~/.ssh/id_rsa` is: the first argument of a read call, as
// a literal, a literal under the home (~/.aws/credentials, expanduser('~/.ssh/id_rsa'))
// or the home joined to a literal (homedir() + '/.ssh/id_rsa'). Any
// other read is left to the inline-code judgment.
func (x *cmdCtx) codeReadTargets(code string) {
	eachCall(code, readCalls, func(args string) bool {
		if end := closingParen(args); end >= 0 {
			args = args[:end]
		}
		pieces := splitCodeArgs(args)
		if len(pieces) == 0 {
			return true
		}
		first := strings.TrimSpace(pieces[0])
		cands := allLiterals(first)
		if v, _ := codeStringValue(first); !strings.Contains(v, unknownCodeValue) {
			cands = append(cands, v)
		}
		for _, p := range cands {
			if !strings.HasPrefix(p, "/") && !strings.HasPrefix(p, "~/") {
				continue
			}
			if strings.HasPrefix(p, "~") && x.c.home != "" {
				p = x.c.home + p[1:]
			}
			sub := &cmdCtx{c: x.c, s: x.s, cw: x.cw, part: x.part}
			sub.readStr(p)
			if sub.set && sub.f.d == Deny {
				x.addF(sub.f)
				return false
			}
		}
		return true
	})
}
