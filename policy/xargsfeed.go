package policy

import (
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// xargs fed by a producer whose output the line spells. `echo ~ | xargs
// rm -rf`, `printf '%s\n' "$HOME" | xargs -r rm -rf` and `ls -d ~/.ssh |
// xargs rm -rf` run `rm -rf ~`: the items are in plain sight, only moved
// to another stage. xargs alone asks (its items are read at run time);
// when the stage before it is echo, printf with a %s-only format, or ls -d,
// the command xargs would run is also judged with those items appended (or
// put in place of -I's marker), written as the producer wrote them, so a
// deny of that command denies the line. Nothing here allows: the part it
// adds can only make the line stricter.

// judgeXargsFeeds adds, for every producer | xargs pair, the command it
// spells, judged as shell.
func (c *checkEnv) judgeXargsFeeds(s *src, f *syntax.File, cw *cwds) {
	if !strings.Contains(s.text, "xargs") {
		return
	}
	syntax.Walk(f, func(n syntax.Node) bool {
		// xargs fed by a here-string: `xargs rm -rf <<< ~` runs rm -rf ~.
		if st, ok := n.(*syntax.Stmt); ok {
			if call, ok := st.Cmd.(*syntax.CallExpr); ok {
				c.judgeXargsProcFeed(s, st, call, cw) // xargsopts.go: xargs rm -rf < <(echo ~)
				for _, r := range st.Redirs {
					if r.Op != syntax.WordHdoc || r.Word == nil {
						continue
					}
					items := xargsSplitWritten(s.slice(r.Word), decodeWord(r.Word, c.home).val)
					if cmd, ok := xargsCommand(s, call, items); ok {
						sub := cw.copy()
						c.shell(cmd, &sub, s.depth+1, "xargs fed by a here-string")
					}
				}
			}
			return true
		}
		b, ok := n.(*syntax.BinaryCmd)
		if !ok || b.Op != syntax.Pipe && b.Op != syntax.PipeAll {
			return true
		}
		stages := pipeStages(b)
		for i := 1; i < len(stages); i++ {
			prod, ok1 := stages[i-1].Cmd.(*syntax.CallExpr)
			cons, ok2 := stages[i].Cmd.(*syntax.CallExpr)
			if !ok1 || !ok2 {
				continue
			}
			if argv := c.staticArgv(cons); len(argv) == 0 || argv[0] != "xargs" {
				continue // the program as every reader sees it: /usr/bin/xargs, 'xargs'
			}
			if cmd, ok := findExecSpelling(s, c.staticArgv(prod), prod, cons); ok { // findfeed.go
				c.shellDenyOnly(s, cmd, cw, "xargs fed by find")
			}
			if items := lsListedItems(s, c.staticArgv(prod), prod); len(items) > 0 {
				if cmd, ok := xargsCommand(s, cons, items); ok { // findfeed.go
					c.shellDenyOnly(s, cmd, cw, "xargs fed by ls")
				}
			}
			items := c.producedItems(s, prod)
			if len(items) == 0 {
				continue
			}
			if cmd, ok := xargsCommand(s, cons, items); ok {
				sub := cw.copy()
				c.shell(cmd, &sub, s.depth+1, "xargs fed by "+strings.Fields(s.slice(prod))[0])
			}
		}
		return true
	})
}

// producedItems returns the words, as written, whose values the stage
// prints one to a line or separated by blanks: echo's operands, printf's
// arguments after a format of %s and separators, ls -d's operands.
func (c *checkEnv) producedItems(s *src, call *syntax.CallExpr) []string {
	argv := c.staticArgv(call)
	if len(argv) < 2 {
		return nil
	}
	words := call.Args[1:]
	switch argv[0] {
	case "echo":
		for len(words) > 0 && (argv[len(argv)-len(words)] == "-n" || argv[len(argv)-len(words)] == "-e" || argv[len(argv)-len(words)] == "-E") {
			words = words[1:]
		}
	case "printf":
		format := strings.NewReplacer(`\n`, "\n", `\t`, "\t", `\0`, "").Replace(argv[1])
		if strings.Trim(strings.ReplaceAll(format, "%s", ""), " \n\t") != "" || !strings.Contains(format, "%s") {
			return nil
		}
		words = words[1:]
	case "ls":
		var ops []*syntax.Word
		dashD := false
		for i, w := range words {
			v := argv[i+1]
			if strings.HasPrefix(v, "-") {
				if strings.Trim(v[1:], "d1") != "" {
					return nil
				}
				dashD = dashD || strings.Contains(v, "d")
				continue
			}
			ops = append(ops, w)
		}
		if !dashD {
			return nil
		}
		words = ops
	case "find":
		return findFedItems(s, call, argv) // findfeed.go: find ~ -maxdepth 0 | xargs rm -rf
	default:
		return nil
	}
	var out []string
	for _, w := range words {
		out = append(out, xargsSplitWritten(s.slice(w), argWordValue(call, argv, w))...)
	}
	return out
}

// argWordValue is the decoded value of the call's word w, or "" when the
// words and argv do not line up.
func argWordValue(call *syntax.CallExpr, argv []string, w *syntax.Word) string {
	if len(argv) != len(call.Args) {
		return ""
	}
	for i, a := range call.Args {
		if a == w {
			return argv[i]
		}
	}
	return ""
}

// xargsSplitWritten: xargs splits what it reads on blanks and newlines,
// honouring its own quotes and backslashes, so an item whose value holds
// them (`echo 'a.txt ../x'`) is several arguments: each is returned
// single-quoted. Other items stay as written.
func xargsSplitWritten(written, val string) []string {
	if !strings.ContainsAny(val, " \t\n'\"\\") {
		return []string{written}
	}
	var out []string
	var cur strings.Builder
	in, has := byte(0), false
	flush := func() {
		if has {
			out = append(out, "'"+strings.ReplaceAll(cur.String(), "'", `'\''`)+"'")
		}
		cur.Reset()
		has = false
	}
	for i := 0; i < len(val); i++ {
		ch := val[i]
		switch {
		case in != 0:
			if ch == in {
				in = 0
			} else {
				cur.WriteByte(ch)
			}
		case ch == '\'' || ch == '"':
			in, has = ch, true
		case ch == '\\' && i+1 < len(val):
			i++
			cur.WriteByte(val[i])
			has = true
		case ch == ' ' || ch == '\t' || ch == '\n':
			flush()
		default:
			cur.WriteByte(ch)
			has = true
		}
	}
	flush()
	return out
}

// xargsCommand spells the command an xargs stage (its program checked by
// the caller) runs on items: its options must be ones that do not change
// what runs, -r, -n/-L/-P N, -I MARK, -t, and -0 (printf '%s\0' ~/.x |
// xargs -0 rm: the same items; after echo, an item with a newline at its
// end, judged as the item: only a deny is taken from this reading).
func xargsCommand(s *src, call *syntax.CallExpr, items []string) (string, bool) {
	if len(call.Args) < 2 {
		return "", false
	}
	args := call.Args[1:]
	mark := ""
	for len(args) > 0 {
		v := s.slice(args[0])
		if long, ok := xargsLongOption(v); ok { // xargsopts.go: --max-args=1, --replace=X
			if long.mark != "" {
				mark = long.mark
			}
			args = args[1:]
			continue
		}
		if b, ok := xargsBundle(v); ok { // xargsopts.go: -0r, -rn1, -0I{}
			if b.needsNext {
				if len(args) < 2 {
					return "", false
				}
				if b.opt == 'I' {
					mark = s.slice(args[1])
				}
				args = args[2:]
				continue
			}
			if b.opt == 'I' {
				mark = b.val
			}
			args = args[1:]
			continue
		}
		switch {
		case v == "-r" || v == "--no-run-if-empty" || v == "-t" || v == "--verbose" || v == "-x" || v == "-0" || v == "--null":
			args = args[1:]
		case v == "-n" || v == "-L" || v == "-P" || v == "-I":
			if len(args) < 2 {
				return "", false
			}
			if v == "-I" {
				mark = s.slice(args[1])
			}
			args = args[2:]
		case strings.HasPrefix(v, "-n") || strings.HasPrefix(v, "-P") || strings.HasPrefix(v, "-L"):
			args = args[1:]
		case strings.HasPrefix(v, "-I"):
			mark = v[2:]
			args = args[1:]
		case strings.HasPrefix(v, "-"):
			return "", false
		default:
			goto done
		}
	}
done:
	var cmd []string
	for _, a := range args {
		cmd = append(cmd, s.slice(a))
	}
	if len(cmd) == 0 {
		cmd = []string{"echo"}
	}
	if mark == "" {
		return strings.Join(append(cmd, items...), " "), true
	}
	var lines []string
	for _, it := range items {
		var one []string
		for _, w := range cmd {
			one = append(one, strings.ReplaceAll(w, mark, it))
		}
		lines = append(lines, strings.Join(one, " "))
	}
	return strings.Join(lines, "\n"), true
}

// xargsFileTools read or edit the files xargs names and run nothing else
// (their own options are still judged).
var xargsFileTools = wordSet{words: []string{"sed", "grep", "egrep", "fgrep", "rg", "wc", "ls", "stat",
	"file", "du", "gofmt", "goimports", "prettier", "black", "ruff", "isort", "eslint", "touch", "basename",
	"dirname", "echo", "md5sum", "sha256sum", "sha1sum", "dos2unix", "clang-format", "rustfmt", "realpath", "mkdir"}}

// xargsNamesOnly reports whether the tool, given unseen names, prints no
// file's contents: sed edits in place, grep and rg list or count.
func xargsNamesOnly(tool string, args []string) bool {
	switch tool {
	case "sed":
		return hasOptS(args, "i", "--in-place")
	case "grep", "egrep", "fgrep", "rg":
		return hasOptS(args, "lLcq", "--files-with-matches", "--files-without-match", "--count", "--quiet")
	}
	return true
}
