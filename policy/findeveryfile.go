package policy

// find . -type f -exec cat {} + has no test on the name: it runs the
// command on every file below the starting point, the project's secrets
// (.env, keys) among them, and find, unlike the shell's *, does not skip
// names that start with a dot. So {} also stands for a secret there
// (findexec_names.go), and cat of every file asks as cat .env does. A
// find that only reaches its starting point (-maxdepth 0) or only
// directories (-type d) names no such file, and a program that only
// reports on a file (ls, stat, wc, du, file, a checksum) shows none of
// its text.

// metadataOnly are programs that show a file's size, kind or checksum,
// not its text.
var metadataOnly = wordSet{words: []string{"ls", "stat", "wc", "du", "file", "md5sum", "sha1sum", "sha256sum",
	"sha512sum", "b2sum", "cksum", "touch", "echo", "printf", "basename", "dirname", "realpath", "readlink"}}

// everyFile reports a find expression with no test on the name or path
// that selects files below the starting point.
func everyFile(expr []word) bool {
	for i, w := range expr {
		switch {
		case findNamed.has(w.val):
			return false
		case w.val == "-maxdepth" && i+1 < len(expr) && expr[i+1].val == "0":
			return false
		case w.val == "-type" && i+1 < len(expr) && expr[i+1].val == "d":
			return false
		case (w.val == "-exec" || w.val == "-execdir" || w.val == "-ok" || w.val == "-okdir") && i+1 < len(expr):
			prog := expr[i+1].val
			if base, ok := resolvedProgram(prog); ok {
				prog = base
			}
			if metadataOnly.has(prog) {
				return false
			}
		}
	}
	return true
}
