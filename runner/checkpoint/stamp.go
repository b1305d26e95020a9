package checkpoint

// Stamp is the place at root as a walk sees it, with no file read and
// nothing stored: each file by its stamp (size, mtime, ctime, inode,
// device, mode) and its extended attributes (one listxattr each, as a
// record has them, so a stamp compares with a record), each directory, link and git dir as Take records them.
// Diff of two stamps names what changed between them (a file whose stamp
// moved as modified, though its content may be the same), for what only
// needs to know what a command touched, not to put it back (sentinel mcp's
// per-call report when its points are off). It costs one walk: no bound on
// file sizes applies, the caller bounds the entries.
func Stamp(root string, o Options) (*Manifest, error) {
	o.stampOnly, o.Prev = true, nil
	return Take(nil, root, o)
}
