package policy

import "strings"

// rsyncDeletes reports the first of rsync's deleting options among args:
// --delete and its --delete-before/-during/-after/-delay/-excluded/-missing-args
// forms, the --del alias, and --remove-source-files and its deprecated
// alias --remove-sent-files (any unambiguous prefix, as rsync's option
// parser takes), also when handed on as a remote option (-M--delete,
// --remote-option=--delete: for a local copy the receiving side is this
// machine). Each removes files, of the destination the source lacks or of
// the sources once sent.
func rsyncDeletes(args []word) string {
	for _, w := range args {
		if w.val == "--" {
			return ""
		}
		if opt := rsyncDeleting(w.val); opt != "" {
			return opt
		}
		if inner, ok := strings.CutPrefix(w.val, "--remote-option="); ok {
			if opt := rsyncDeleting(inner); opt != "" {
				return opt
			}
		}
		if inner, ok := strings.CutPrefix(w.val, "-M"); ok && strings.HasPrefix(inner, "-") {
			if opt := rsyncDeleting(inner); opt != "" {
				return opt
			}
		}
	}
	return ""
}

// rsyncDeleting is the name of one word's deleting option, or "".
func rsyncDeleting(w string) string {
	name, _, _ := strings.Cut(w, "=")
	if name == "--del" || strings.HasPrefix(name, "--dele") {
		return name
	}
	if len(name) > len("--rem") && (strings.HasPrefix("--remove-source-files", name) || strings.HasPrefix("--remove-sent-files", name)) {
		return name
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
