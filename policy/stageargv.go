package policy

import "strings"

// The environment checks (dumpenv.go, envfilter.go, envwriters.go) read a
// pipeline stage's words without a handler: they read them through the
// same tables the handlers do, so `less --log-f=FILE` is --log-file,
// `sort --outp=F` is --output and `cut -sd= -f1` is `cut -s -d = -f 1`.

// stageArgv writes argv as its program reads it: abbreviated long options
// written out (longopts.txt) and bundles of short options split
// (shortopts.txt). ambiguous reports a long option that abbreviates
// several, which a caller takes as the worst reading.
func stageArgv(argv []string) (out []string, ambiguous bool) {
	if len(argv) == 0 {
		return argv, false
	}
	long := longOpts.get()[argv[0]]
	short, hasShort := shortOpts.get()[argv[0]]
	if len(long) == 0 && !hasShort {
		return argv, false
	}
	out = append(make([]string, 0, len(argv)+2), argv[0])
	for i, a := range argv[1:] {
		switch {
		case a == "--":
			return append(out, argv[i+1:]...), ambiguous
		case strings.HasPrefix(a, "--") && len(long) > 0:
			name, val, hasVal := strings.Cut(a[2:], "=")
			full, n := resolveLongOpt(long, name)
			if n > 1 {
				ambiguous = true
			}
			if n == 1 {
				a = "--" + full
				if hasVal {
					a += "=" + val
				}
			}
		case hasShort:
			if parts, ok := short.split(word{val: a, static: true}); ok {
				for _, p := range parts {
					out = append(out, p.val)
				}
				continue
			}
		}
		out = append(out, a)
	}
	return out, ambiguous
}
