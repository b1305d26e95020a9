package policy

// A shell told to run /dev/stdin (issue 32, polcorp5 C2): `sh /dev/stdin
// <<< 'rm -rf ~/.ssh'` reads its script from its input exactly as `sh -s`
// does, so it is judged as that: the here-string or here-document is the
// script, judged on its own; an input nobody has seen is denied.

// stdinScriptPaths name the shell's own input as a file.
var stdinScriptPaths = wordSet{words: []string{"/dev/stdin", "/dev/fd/0", "/proc/self/fd/0"}}

// namesStdin says whether a program's file operand v is its input: "-"
// or one of stdinScriptPaths (awk/sed -f, make -f, cmake -P …).
func namesStdin(v string) bool { return v == "-" || stdinScriptPaths.has(v) }

// stdinScriptAsDashS rewrites a shell's script operand that names its
// input (/dev/stdin, /dev/fd/0, /proc/self/fd/0) as -s, keeping the
// arguments after it.
func stdinScriptAsDashS(args []word) []word {
	for i := 1; i < len(args); i++ {
		v := args[i].val
		switch {
		case v == "--":
			if i+1 < len(args) && args[i+1].static && stdinScriptPaths.has(args[i+1].val) {
				// bash -- /dev/stdin a b is bash -s a b
				out := append(replaceWord(args, i, "-s")[:i+1:i+1], args[i+2:]...)
				return out
			}
			return args
		case v == "-o" || v == "+o" || v == "-O" || v == "+O":
			i++
		case len(v) > 1 && (v[0] == '-' || v[0] == '+'):
			if v[0] == '-' && containsByte(v[1:], 'c') {
				return args // -c: the script is the payload
			}
		default:
			if args[i].static && stdinScriptPaths.has(v) {
				return replaceWord(args, i, "-s")
			}
			return args
		}
	}
	return args
}

func replaceWord(args []word, i int, v string) []word {
	out := append([]word(nil), args...)
	out[i] = word{val: v, static: true}
	return out
}

func containsByte(s string, c byte) bool {
	for i := 0; i < len(s); i++ {
		if s[i] == c {
			return true
		}
	}
	return false
}
