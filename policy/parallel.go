package policy

import (
	"path"
	"strconv"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// GNU parallel: parallel [options] [command [args]] (::: args | :::: files)…
// It joins the command's words with spaces, puts each input item (shell
// quoted) where a replacement string stands, or after the command when
// none does, and runs the text with a shell; with no command each input
// item is itself a command line. Static ::: items are judged as the
// commands they make; items read at run time are judged as xargs's are
// (inputshell.go). Options it does not know ask, as before.

var parallelSpec = optSpec{
	flags: "0kqvXmurt",
	// -S (sshlogin) runs on other machines: not known, so it asks.
	valued: "jPNnLdEICsa",
	long: []string{"null", "keep-order", "quote", "verbose", "will-cite", "bar", "progress", "eta", "dry-run", "dryrun",
		"xargs", "tag", "line-buffer", "lb", "group", "ungroup", "no-notice", "no-run-if-empty", "shuf", "plain", "citation"},
	longVal: []string{"jobs", "max-args", "max-lines", "delimiter", "eof", "colsep", "halt", "timeout", "retries", "delay",
		"replace", "tmpdir", "joblog", "results", "res", "arg-file", "memfree", "load", "max-chars", "tagstring"},
}

// parallelMaxJobs bounds how many commands static items may make.
const parallelMaxJobs = 64

// parallelCmd judges GNU parallel.
func parallelCmd(x *cmdCtx, args []word) {
	rest := args[1:]
	var vals []optVal
	n, good := skipOpts(rest, parallelSpec, func(o, v string) { vals = append(vals, optVal{o, v}) })
	if !good {
		x.add(Ask, RuleWrapperUnknown, "a parallel option the policy does not know")
		return
	}
	repl, quote := "{}", false
	var files []word
	for _, v := range vals {
		switch v.opt {
		case "-I", "--replace":
			repl = v.val
		case "--joblog", "--results", "--res":
			x.writeStr(v.val)
		case "--tmpdir":
			x.writeStr(v.val)
		case "-a", "--arg-file":
			files = append(files, word{val: v.val, static: allStatic(rest[:n])})
		}
	}
	for _, w := range rest[:n] {
		if w.val == "-q" || w.val == "--quote" {
			quote = true
		}
	}
	rest = rest[n:]
	tmpl := rest
	var groups [][]word
	for i, w := range rest {
		if w.val == ":::" || w.val == "::::" || w.val == ":::+" || w.val == "::::+" {
			tmpl = rest[:i]
			groups = parallelGroups(rest[i:], &files)
			break
		}
	}
	if groups == nil && len(files) == 0 {
		// Items come from the input.
		if len(tmpl) == 0 {
			x.add(Deny, RuleShellStdin, "parallel runs each line it reads as a command, which nobody has seen")
			return
		}
		if x.inputShell("parallel", tmpl, repl, true, nil) {
			return
		}
		x.add(Ask, RuleWrapperXargs, "parallel runs a command with arguments read at run time")
		x.parallelJob(tmpl, repl, quote, []string{standInNames})
		return
	}
	if len(files) > 0 {
		for _, f := range files {
			if len(tmpl) == 0 || inputIsShellCode(tmpl, repl, true) {
				x.inputShell("parallel", []word{{val: "sh", static: true}, {val: "-c", static: true}, {val: repl, static: true}}, repl, false, &f)
				continue
			}
			x.read(f)
		}
		if len(tmpl) == 0 || inputIsShellCode(tmpl, repl, true) {
			return
		}
		x.add(Ask, RuleWrapperXargs, "parallel runs a command with arguments read from a file")
		x.parallelJob(tmpl, repl, quote, []string{standInNames})
		return
	}
	combos := [][]string{nil}
	for _, g := range groups {
		var next [][]string
		for _, c := range combos {
			for _, item := range g {
				if !item.static {
					x.add(Ask, RuleShellDynamicArg, "a parallel argument comes from an expansion")
					return
				}
				next = append(next, append(append([]string(nil), c...), item.val))
			}
		}
		if len(next) > parallelMaxJobs {
			x.add(Ask, RuleWrapperXargs, "parallel makes more commands than the policy judges one by one")
			return
		}
		combos = next
	}
	x.add(Allow, RuleShellBuiltin, "parallel runs the commands its arguments make, each judged on its own")
	for _, c := range combos {
		if len(tmpl) == 0 {
			// No command: each item is a command line.
			sub := x.cw.copy()
			x.c.shell(strings.Join(c, " "), &sub, x.s.depth+1, "parallel")
			continue
		}
		x.parallelJob(tmpl, repl, quote, c)
	}
}

// parallelGroups splits the input sources after the command: ::: items
// (returned) and :::: files (added to files).
func parallelGroups(ws []word, files *[]word) [][]word {
	var groups [][]word
	var cur *[]word
	fileGroup := false
	for _, w := range ws {
		switch w.val {
		case ":::", ":::+":
			groups = append(groups, nil)
			cur, fileGroup = &groups[len(groups)-1], false
			continue
		case "::::", "::::+":
			cur, fileGroup = nil, true
			continue
		}
		if fileGroup {
			*files = append(*files, w)
		} else if cur != nil {
			*cur = append(*cur, w)
		}
	}
	if groups == nil {
		return [][]word{}
	}
	return groups
}

// parallelJob judges the text parallel runs for one combination of items.
func (x *cmdCtx) parallelJob(tmpl []word, repl string, quote bool, items []string) {
	parts := make([]string, len(tmpl))
	used := false
	for i, w := range tmpl {
		v := w.val
		if quote {
			v = shellQuote(v)
		}
		nv, ok, u := parallelReplace(v, repl, items)
		if !ok {
			x.add(Ask, RuleShellDynamicArg, "a parallel replacement string the policy does not know")
			return
		}
		used = used || u
		parts[i] = nv
	}
	text := strings.Join(parts, " ")
	if !used {
		for _, it := range items {
			text += " " + shellQuote(it)
		}
	}
	sub := x.cw.copy()
	x.c.shell(text, &sub, x.s.depth+1, "parallel")
}

// parallelReplace puts the quoted items where v names them: {} (all
// items), {n}, and the forms {.} {/} {//} {/.} of them; {#} and {%} are
// the job and slot numbers. A {= perl =} form is not known (ok false).
func parallelReplace(v, repl string, items []string) (out string, ok, used bool) {
	if strings.Contains(v, "{=") {
		return "", false, false
	}
	all := make([]string, len(items))
	for i, it := range items {
		all[i] = shellQuote(it)
	}
	if strings.Contains(v, repl) {
		v = strings.ReplaceAll(v, repl, strings.Join(all, " "))
		used = true
	}
	forms := map[string]func(string) string{
		".":  func(s string) string { return strings.TrimSuffix(s, path.Ext(s)) },
		"/":  path.Base,
		"//": path.Dir,
		"/.": func(s string) string { b := path.Base(s); return strings.TrimSuffix(b, path.Ext(b)) },
	}
	for f, fn := range forms {
		if strings.Contains(v, "{"+f+"}") {
			parts := make([]string, len(items))
			for i, it := range items {
				parts[i] = shellQuote(fn(it))
			}
			v = strings.ReplaceAll(v, "{"+f+"}", strings.Join(parts, " "))
			used = true
		}
		for i, it := range items {
			k := "{" + strconv.Itoa(i+1) + f + "}"
			if strings.Contains(v, k) {
				v = strings.ReplaceAll(v, k, shellQuote(fn(it)))
				used = true
			}
		}
	}
	for i, it := range items {
		k := "{" + strconv.Itoa(i+1) + "}"
		if strings.Contains(v, k) {
			v = strings.ReplaceAll(v, k, shellQuote(it))
			used = true
		}
	}
	v = strings.ReplaceAll(strings.ReplaceAll(v, "{#}", "1"), "{%}", "1")
	return v, true, used
}

// shellQuote quotes s as one shell word.
func shellQuote(s string) string {
	q, err := syntax.Quote(s, syntax.LangBash)
	if err != nil {
		return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
	}
	return q
}
