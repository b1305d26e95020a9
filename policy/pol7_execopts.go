package policy

import "strings"

// Options that run a program (issue 32, polcorp5 A3), one table for the
// file and filter programs the policy knows: `split --filter=CMD` runs CMD
// through the shell for every piece, `diff3 --diff-program=P` runs P. The
// value is judged as what it runs: a shell line as that line (rm -rf ~ is
// denied, a line nobody has seen asks), a program as that program run
// with arguments. Long options arrive written out in full (longopts.go),
// so --filte= and --diff-p= are matched here too. Programs whose
// handlers deny such options outright (tar --to-command, sort
// --compress-program, rsync -e, zip -TT, rg --pre) keep their handlers.

type execOption struct {
	long  string // the long option's full name, without "--"
	short byte   // its one-letter form, 0 for none
	shell bool   // the value is a shell line (sh -c VALUE), not a program
	deny  bool   // denied in any spelling, as the program's handler denies the full name
}

var execOptions = lazy[map[string][]execOption]{build: func() map[string][]execOption {
	diffProgram := []execOption{{long: "diff-program"}}
	return map[string][]execOption{
		"split": {{long: "filter", shell: true}},
		"diff":  diffProgram,
		"diff3": diffProgram,
		"sdiff": diffProgram,
		// zip -T --unzip-command=CMD runs CMD through the shell to test the
		// archive; Info-ZIP takes any unique prefix (--unzip-c)
		"zip": {{long: "unzip-command", shell: true, deny: true}},
	}
}}

// judgeExecOptions judges the values of args[0]'s options that run a
// program as the commands they run.
func (x *cmdCtx) judgeExecOptions(args []word) {
	opts := execOptions.get()[args[0].val]
	if len(opts) == 0 {
		return
	}
	// programs without a table in longopts.txt get their abbreviations
	// matched here: a prefix of three letters or more is the option
	_, expanded := longOpts.get()[args[0].val]
	rest := args[1:]
	for i := 0; i < len(rest); i++ {
		v := rest[i].val
		if v == "--" {
			return
		}
		for _, o := range opts {
			val, ok := word{}, false
			if name, _, _ := strings.Cut(v, "="); !expanded && len(name) >= 5 && strings.HasPrefix(name, "--") && strings.HasPrefix("--"+o.long, name) {
				v = "--" + o.long + v[len(name):]
			}
			switch {
			case v == "--"+o.long || o.short != 0 && v == "-"+string(o.short):
				if i+1 < len(rest) {
					i++
					val, ok = rest[i], true
				}
			case strings.HasPrefix(v, "--"+o.long+"="):
				val, ok = word{val: v[len(o.long)+3:], static: rest[i].static}, true
			case o.short != 0 && len(v) > 2 && v[0] == '-' && v[1] == o.short:
				val, ok = word{val: v[2:], static: rest[i].static}, true
			}
			if !ok {
				continue
			}
			via := args[0].val + " --" + o.long
			if o.deny {
				x.add(Deny, RuleToolExec, via+" runs a program")
			}
			if !val.static {
				x.add(Ask, RuleToolExec, via+" runs a program the line does not show")
				continue
			}
			if o.shell {
				sub := x.cw.copy()
				x.c.shell(val.val, &sub, x.s.depth+1, via)
				continue
			}
			x.nested([]word{{val: val.val, static: true}}, via)
		}
	}
}
