package policy

import "strings"

// gitOutputs judges the files a git command writes its output to:
// --output FILE (diff, log, show, archive), archive's -o FILE and
// format-patch's -o/--output-directory DIR, each also spelled attached
// (-oFILE, --output=FILE) as git's option parser accepts. What they write
// is the command's own output, as `git diff > FILE` writes it, so it is
// captured output: in the sandbox's private temp dir the coder's scratch
// (`git format-patch -o /tmp/patches`), elsewhere outside the workspace
// a write outside it.
func gitOutputs(x *cmdCtx, sub string, sargs []word) {
	short := sub == "archive" || sub == "format-patch"
	dir := sub == "format-patch"
	out := func(w word, isDir bool) {
		if isDir {
			w = word{val: w.val + "/glob-match", static: w.static}
		}
		x.capturing(func() { x.write(w) })
	}
	for k := 0; k < len(sargs); k++ {
		a := sargs[k]
		v := a.val
		if v == "--" {
			return
		}
		attached := func(val string) word { return word{val: val, static: a.static} }
		switch {
		case v == "--output" || short && v == "-o" || dir && v == "--output-directory":
			if k+1 < len(sargs) {
				out(sargs[k+1], dir)
				k++
			}
		case strings.HasPrefix(v, "--output="):
			out(attached(strings.TrimPrefix(v, "--output=")), dir)
		case dir && strings.HasPrefix(v, "--output-directory="):
			out(attached(strings.TrimPrefix(v, "--output-directory=")), true)
		case short && strings.HasPrefix(v, "-o") && len(v) > 2:
			out(attached(v[2:]), dir)
		}
	}
}
