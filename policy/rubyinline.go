package policy

import "strings"

// Ruby one-liners (ruby -e 'puts RUBY_VERSION', ruby -rjson -e
// 'p JSON.parse(File.read("x.json"))') are judged as python -c and node -e
// are (inlineCode): inside the sandbox a snippet that only computes and
// reads is allowed. Ruby runs programs and loads code in spellings of its
// own (%x(), Kernel#open("|cmd"), send(:system), require), which
// rubyRiskyToken asks about before the shared judge.

// rubyStdlib are the libraries -r may load: Ruby's own, never a path.
var rubyStdlib = wordSet{words: []string{"json", "yaml", "set", "pp", "date", "time", "csv", "digest", "securerandom", "bigdecimal", "ostruct", "erb", "uri", "English"}}

// rubyInline reads `ruby [-w] [-rLIB] -e CODE [-e CODE]…`: ok is false for
// anything else (a script, another option), which the caller judges.
func rubyInline(args []word) (string, bool) {
	var code []string
	for i := 0; i < len(args); i++ {
		a := args[i]
		if !a.static {
			return "", false
		}
		switch v := a.val; {
		case v == "-e":
			if i+1 >= len(args) || !args[i+1].static {
				return "", false
			}
			i++
			code = append(code, args[i].val)
		case v == "-w" || v == "-W0" || v == "-W" || v == "--disable-gems" || v == "--disable=gems":
		case strings.HasPrefix(v, "-r") && rubyStdlib.has(v[2:]):
		default:
			return "", false
		}
	}
	return strings.Join(code, "\n"), len(code) > 0
}

// rubyRisky are Ruby's own ways to run a program, load code or reach
// outside what the shared judge knows.
var rubyRisky = []string{"%x", "open", "send", "method", "const_get", "instance_variable", "define_method", "fileutils",
	"delete", "rm_", "env.", "env[", "binding", "kernel", "syscall", "io.", "process", "trap", "at_exit", "require", "load",
	"dir.", "objectspace", "$0", "$stdin", "argf", "net::", "socket", "pty", "open3", "`", "exit!", "fork", "spawn", "exec", "system"}

func rubyRiskyToken(code string) string {
	low := strings.ToLower(code)
	for _, t := range rubyRisky {
		if strings.Contains(low, t) {
			return t
		}
	}
	return ""
}
