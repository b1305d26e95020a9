// Package checkpoint records a place — a directory tree of the person's
// that an in-place run (sentinel exec, a launcher shim) acts on — so that
// it can be compared later and restored byte for byte.
//
// A checkpoint is a Manifest: every entry under the place (tracked,
// untracked and ignored files alike: content hash, mode, owner, size and stamp;
// symlinks and their targets; directories and their modes), with the file
// contents in a content-addressed Store (sha256 → blob, written once,
// atomically). Files over a size bound (Limits) are listed but not
// covered, and a `.git` (directory or file) is recorded by its presence
// only: git dirs are never read or written here. The place's own
// .sentinel (Sentinel's state and journal) and the Skip paths are left out.
// A directory on another filesystem than the place's top (a mount point:
// st_dev differs) is listed once and not looked into, as find -xdev
// (OtherMount): not covered.
//
// The place is listed and read only from itself (its os.Root; on Linux
// each file with one openat2 that follows no link): a directory swapped
// for a link while a checkpoint is taken (to ~/.ssh, say) is never read
// through, and a file that is not the one the walk listed (device, inode)
// is listed, not covered. Undo writes through the same root and refuses a
// step whose parent is a link when it runs; a path that is no longer what
// undo saw when it planned (the person saved it meanwhile) is kept, not
// written over (undo_race.go).
//
// It owns the Store in the user's state dir (never the place, never where
// the sandboxed coder can write), taking a Manifest (Take), comparing two
// (Diff: content, modes and owners, owner.go), and restoring a place to
// one (PlanUndo, Apply; owners given back as root, told when not). It must not run
// git, touch a git dir, or decide policy: the runner wires it into an
// in-place run and `sentinel undo`; the policy may ask Manifest.Covers.
package checkpoint
