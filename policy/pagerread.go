package policy

import "strings"

// less and more of files, with the sandbox on: a pager whose output is not
// a terminal copies its files to the output as cat does, and one that is
// runs only what keys typed at it ask for, inside the sandbox (polcorp11,
// polcorp9, polcorp1207: less -N CHANGELOG.md, less -F README.md, less
// README.md asked as interactive). Judged as a read of its files (a
// secret or a file outside the workspace keeps its own judgement), and
// only in plain form: no +command (less '+!sh' runs a shell at start), no
// lesskey, log (-o/-O writes a file), tag or preprocessor option. With
// the sandbox off the pager keeps asking: the person's LESSOPEN
// preprocessor (lesspipe) runs programs on the file, outside any sandbox.

// pagerFlags are the pagers' flags, as letters a cluster may join.
var pagerFlags = map[string]string{
	"less": "NnFRrSXiIMmsJqQwWeEKc~",
	"more": "dlfpcsu",
}

// pagerLong are less's long flags of the same kind.
var pagerLong = wordSet{words: []string{"--LINE-NUMBERS", "--line-numbers", "--quit-if-one-screen", "--RAW-CONTROL-CHARS",
	"--raw-control-chars", "--chop-long-lines", "--no-init", "--ignore-case", "--IGNORE-CASE", "--LONG-PROMPT",
	"--long-prompt", "--squeeze-blank-lines", "--quit-at-eof", "--QUIT-AT-EOF", "--quit-on-intr", "--tilde",
	"--status-column", "--hilite-unread", "--HILITE-UNREAD", "--silent", "--QUIET", "--quiet", "--"}}

// addPagerHandlers wraps the pagers' handler (handlers_fs.go asks).
func addPagerHandlers(handlers map[string]handler) {
	for n := range pagerFlags {
		if prev := handlers[n]; prev != nil {
			handlers[n] = pagerRead(n, prev)
		}
	}
}

func pagerRead(name string, prev handler) handler {
	return func(x *cmdCtx, args []word) {
		files, ok := pagerFiles(name, args[1:])
		if !ok || !x.c.sandbox || x.c.inPlace {
			prev(x, args)
			return
		}
		x.add(Allow, RuleReadOnly, name+" shows files")
		for _, f := range files {
			x.read(f)
		}
	}
}

// pagerFiles returns the pager's file operands when every option is one
// of its plain flags, and every word static.
func pagerFiles(name string, args []word) ([]word, bool) {
	var files []word
	ends := false
	for _, a := range args {
		v := a.val
		if !a.static || a.procSubst {
			return nil, false
		}
		switch {
		case ends || !strings.HasPrefix(v, "-") && !strings.HasPrefix(v, "+"):
			files = append(files, a)
		case v == "--":
			ends = true
		case strings.HasPrefix(v, "--"):
			if name != "less" || !pagerLong.has(v) {
				return nil, false
			}
		case strings.HasPrefix(v, "+") || len(v) < 2:
			return nil, false // +command (less +!sh runs a shell), or "-" (standard input named as a file)
		default:
			for _, c := range v[1:] {
				if !strings.ContainsRune(pagerFlags[name], c) {
					return nil, false
				}
			}
		}
	}
	return files, true
}
