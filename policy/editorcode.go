package policy

import "strings"

// Code an editor's or pager's start-up commands run besides :!CMD (which
// exCommands judges): Ex commands of an embedded language (:lua, :py3,
// :python3, :pyx, :perl, :ruby and their abbreviations) judged as that
// language's interpreter given the code inline (lua -e, python3 -c, perl
// -e, ruby -e); :call system("CMD") and :exe "!CMD" judged as CMD; and
// less's +!CMD, the shell line less runs at start (polcorp13: nvim
// --headless -c 'lua os.execute("rm -rf ~")' and less +'!rm -rf ~' asked
// while the lines they spell are denied). The editor or pager itself
// still asks.

// exEmbeddedCode judges one Ex command c (range and leading colon already
// taken off) that runs embedded code or a shell line through a function;
// it reports whether c was one.
func (x *cmdCtx) exEmbeddedCode(c string) bool {
	name, _ := exSplit(c)
	arg := strings.TrimSpace(strings.TrimPrefix(c[len(name):], "!"))
	interp := ""
	switch {
	case name == "lua" || name == "luado":
		interp = "lua -e "
	case exAbbrev(name, "py3", "py3"), exAbbrev(name, "python3", "python3"), exAbbrev(name, "py", "python"),
		exAbbrev(name, "pyx", "pyx"), exAbbrev(name, "pythonx", "pythonx"), name == "py3do", name == "pydo":
		interp = "python3 -c "
	case exAbbrev(name, "perl", "perl"), name == "perldo":
		interp = "perl -e "
	case exAbbrev(name, "rub", "ruby"), name == "rubydo":
		interp = "ruby -e "
	case exAbbrev(name, "cal", "call"), exAbbrev(name, "exe", "execute"), exAbbrev(name, "ec", "echo"), exAbbrev(name, "let", "let"):
		for _, fn := range []string{"system(", "systemlist("} {
			eachCall(arg, []string{fn}, func(args string) bool {
				if lit, ok := firstLiteral(args); ok {
					x.exShell(lit)
				}
				return true
			})
		}
		if exAbbrev(name, "exe", "execute") {
			for _, lit := range allLiterals(arg) {
				if strings.HasPrefix(strings.TrimLeft(lit, " :"), "!") {
					x.exShell(strings.TrimLeft(lit, " :")[1:])
				}
			}
		}
		return true
	default:
		return false
	}
	if arg != "" {
		sub := x.cw.copy()
		x.c.shell(interp+shellQuote(arg), &sub, x.s.depth+1, "editor")
	}
	return true
}

// lessCmd is less: it asks (it is interactive and runs commands of its
// own), and the shell line of a +!CMD start-up command is judged.
//
// Even its moving forms (less +G, -N, -F) keep asking, in both modes (off29
// weighed them and kept the decision of polcorp5's relabelled row and
// adversarial.txt's "pager can run commands"): less reads its keys from
// the terminal, and an agent that holds the command's terminal (Codex's
// write_stdin) can type `!CMD` into it, which no line shows. `cat`, `head
// -n`, `tail -n` and `sed -n` read the same text unasked.
func lessCmd(x *cmdCtx, args []word) {
	x.add(Ask, RuleUnknownCommand, args[0].val+" is interactive or can run commands of its own")
	for _, a := range args[1:] {
		if a.val == "--" {
			return
		}
		if cmd, ok := strings.CutPrefix(a.val, "+"); ok && a.static {
			cmd = strings.TrimPrefix(cmd, "+")
			if strings.HasPrefix(cmd, "!") {
				x.exShell(cmd[1:])
			}
		}
	}
}
