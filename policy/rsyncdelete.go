package policy

import "strings"

// rsyncDeletes reports the first of rsync's deleting options among args:
// --delete and its --delete-before/-during/-after/-delay/-excluded/-missing-args
// forms, the --del alias, and --remove-source-files (any unambiguous
// prefix of it, as rsync's option parser takes). Each removes files, of the
// destination the source lacks or of the sources once sent.
func rsyncDeletes(args []word) string {
	for _, w := range args {
		if w.val == "--" {
			return ""
		}
		name, _, _ := strings.Cut(w.val, "=")
		if name == "--del" || strings.HasPrefix(name, "--dele") || (len(name) > len("--rem") && strings.HasPrefix("--remove-source-files", name)) {
			return name
		}
	}
	return ""
}

// rsyncDiscards judges rsync's deleting options: in place with no
// checkpoint they discard the person's files (inplace.go); in a copy they
// are the copy's business.
func (x *cmdCtx) rsyncDiscards(args []word) {
	if opt := rsyncDeletes(args); opt != "" {
		x.discardsWork("rsync "+opt+" removes files", RuleDestructive, true)
	}
}
