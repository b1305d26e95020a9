package policy

import "strings"

// truncate cuts a file to a size: on a file of the tree it throws its
// contents away as rm does, so in place, where no checkpoint covers the
// person's uncommitted work, it asks as rm of a file does
// (inplace.uncommitted, which does not look whether the file exists
// either). Growing a file (-s +N) loses nothing; in a disposable copy it
// stays a workspace write.

// truncateCmd judges truncate: a workspace write (writeAll), and in place
// the loss of the contents of the files it may shrink.
func truncateCmd(x *cmdCtx, args []word) {
	writeAll(x, args)
	if !x.c.inPlace || x.c.checkpointed || !truncateShrinks(args[1:]) {
		return
	}
	if len(operands(args[1:], "rs", []string{"reference", "size"})) > 0 {
		x.discardsWork("truncate cuts the contents of files", RuleDestructive, true)
	}
}

// truncateShrinks reports whether truncate's size may shrink a file: every
// size that only grows one (+N) or a reference file's size leaves it be;
// anything else (N, -N, <N, /N, %N) may cut it.
func truncateShrinks(args []word) bool {
	for i := 0; i < len(args); i++ {
		v := args[i].val
		var size string
		switch {
		case v == "-s" || v == "--size":
			if i+1 < len(args) {
				size = args[i+1].val
				i++
			}
		case strings.HasPrefix(v, "--size="):
			size = v[len("--size="):]
		case strings.HasPrefix(v, "-s"):
			size = v[2:]
		case v == "-r" || v == "--reference" || strings.HasPrefix(v, "--reference="):
			return true
		default:
			continue
		}
		if !strings.HasPrefix(size, "+") {
			return true
		}
	}
	return false
}
