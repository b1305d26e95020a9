package gitdir

// A watcher (inotify) that learns of a new directory watches it, then
// looks at what it already holds; but a subdirectory made after that look
// and before its own watch is added sends no event (mkdir -p a/b/c, then
// a/b/c/.git, or HEAD written into a/b/c after a/b/c/objects and refs).
// NewTree.Settle closes that window the same way for every watcher of
// the place (sentinel exec's, runner/inplace_gitwatch.go, and sentinel
// mcp's, internal/mcpserver/gitlive.go): the tree is looked at again
// after each round of new watches, until a look finds no directory that
// was not watched before it began. Whatever came before a watch is then
// seen by that last look; whatever came after it is an event.

// SettleLooks bounds the looks at one new subtree: a tree that still grows
// after that many (the coder making directories in a loop, which would
// hold the watch here) is handed to Poll instead.
const SettleLooks = 16

// NewTree is what NewTree.Settle needs of a watcher.
type NewTree struct {
	// Look walks dir (a ScanTree of it; what it found so far when the
	// walk failed).
	Look func(dir string) Scan
	// Found takes what one look found: it quarantines the git dirs and
	// pointers that are new.
	Found func(Scan)
	// Watch adds a watch on one directory.
	Watch func(dir string)
	// Poll hands a tree that kept growing to a slower beat that walks it.
	Poll func(dir string)
	// Scanned, when not nil, is called between each look and the watches
	// on what it found: a test makes a directory in that window.
	Scanned func(dir string)
}

// Settle looks at the new directory root, already watched, and everything
// under it until no look finds a directory not watched before it began
// (at most SettleLooks looks; then root goes to Poll).
func (n NewTree) Settle(root string) {
	watched := map[string]bool{root: true}
	for look := 1; ; look++ {
		sc := n.Look(root)
		n.Found(sc)
		if n.Scanned != nil {
			n.Scanned(root)
		}
		fresh := false
		for _, d := range sc.Watch {
			if !watched[d] {
				watched[d] = true
				fresh = true
				n.Watch(d)
			}
		}
		if !fresh {
			return
		}
		if look == SettleLooks {
			n.Poll(root)
			return
		}
	}
}
