package policy

import "strings"

// Text tools polcorp7 found asked (class 2 and 4): iconv converts a file's
// encoding (a filter: it reads its operands, writes only -o's file); GNU bc
// is a calculator with no shell escape and no file output (dc, which has
// `!`, still asks); `history` prints this shell's list, empty in a
// non-interactive shell, while its options that clear, read or write the
// history file still ask.

func iconvCmd(x *cmdCtx, args []word) {
	x.add(Allow, RuleReadOnly, "iconv converts text between encodings")
	rest := args[1:]
	for i := 0; i < len(rest); i++ {
		v := rest[i].val
		switch {
		case v == "-o" || v == "--output":
			if i+1 < len(rest) {
				x.write(rest[i+1])
				i++
			}
		case strings.HasPrefix(v, "--output="):
			x.write(word{val: strings.TrimPrefix(v, "--output="), static: rest[i].static})
		case strings.HasPrefix(v, "-o") && len(v) > 2:
			x.write(word{val: v[2:], static: rest[i].static})
		case v == "-f" || v == "-t" || v == "--from-code" || v == "--to-code":
			i++
		case v == "--":
			for _, w := range rest[i+1:] {
				x.read(w)
			}
			return
		case strings.HasPrefix(v, "--") && (strings.HasPrefix(v, "--from-code=") || strings.HasPrefix(v, "--to-code=") ||
			v == "--list" || v == "--silent" || v == "--verbose"):
		case strings.HasPrefix(v, "-") && len(v) > 1 && !strings.HasPrefix(v, "--"):
			// -c, -s, -l and their clusters; -fLATIN1, -tUTF-8 carry their value
		case strings.HasPrefix(v, "--"):
			x.add(Ask, RuleToolExec, "an iconv option the policy does not know: "+v)
		default:
			x.read(rest[i])
		}
	}
}

func bcCmd(x *cmdCtx, args []word) {
	x.add(Allow, RuleReadOnly, "bc computes: it has no shell escape and writes no file")
	for _, a := range args[1:] {
		v := a.val
		switch {
		case v == "-l" || v == "-q" || v == "-s" || v == "-w" || v == "-i" || v == "-h" || v == "-v" ||
			v == "--mathlib" || v == "--quiet" || v == "--standard" || v == "--warn" || v == "--interactive" ||
			v == "--help" || v == "--version" || v == "-lq" || v == "-ql":
		case strings.HasPrefix(v, "-"):
			x.add(Ask, RuleToolExec, "a bc option the policy does not know: "+v)
		default:
			x.read(a)
		}
	}
}

func historyCmd(x *cmdCtx, args []word) {
	if len(args) == 1 || len(args) == 2 && args[1].static && isDigits(args[1].val) {
		x.add(Allow, RuleReadOnly, "history prints this shell's history, empty in a non-interactive shell")
		return
	}
	x.add(Ask, RuleShellOption, "history changes this shell's history or its file")
}

func addTextToolHandlers(handlers map[string]handler) {
	handlers["iconv"] = iconvCmd
	handlers["bc"] = bcCmd
	handlers["history"] = historyCmd
}
