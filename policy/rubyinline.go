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
	in := inlineCodeOf("ruby", args) // inlinecode.go
	if !in.found || !in.static {
		return "", false
	}
	for i := 0; i < len(args); i++ {
		switch v := args[i].val; {
		case v == "-e":
			i++
		case strings.HasPrefix(v, "-e"): // -e'CODE'
		case v == "-w" || v == "-W0" || v == "-W" || v == "--disable-gems" || v == "--disable=gems":
		case strings.HasPrefix(v, "-r") && rubyStdlib.has(v[2:]):
		default:
			return "", false
		}
	}
	return in.code, true
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

// rubyValueOpts are ruby's options that take the next word as their value
// (-I dir, -r lib, -C dir, -E enc, -F sep); the rest are flags or carry
// their value attached (-Ilib:test, -W2, -i.bak, -0777).
// The long options --enable, --disable, --encoding, --external-encoding,
// --internal-encoding and --dump take the next word too when it is not
// joined with = (ruby --disable gems -e CODE: gems is no script).
var rubyValueOpts = wordSet{words: []string{"-I", "-r", "-C", "-E", "-F", "--enable", "--disable", "--encoding",
	"--external-encoding", "--internal-encoding", "--dump"}}

// rubyScriptAt reports whether rest[i] is ruby's script operand: the first
// word that is not an option nor an option's value. Everything after it
// is the script's own arguments (ruby test/x.rb -n test_name).
func rubyScriptAt(rest []word, i int) bool {
	for j := 0; j < len(rest); j++ {
		v := rest[j].val
		if !rest[j].static {
			return false
		}
		if v == "--" {
			return j+1 == i
		}
		if strings.HasPrefix(v, "-") && v != "-" {
			if rubyValueOpts.has(v) {
				j++
			}
			continue
		}
		return j == i
	}
	return false
}
