package gitdir

import "strings"

// A file system may take another spelling for a name: case-insensitive
// ones (macOS, Windows, ext4 casefold) any case; HFS+ ignores some
// invisible code points (".g\u200cit" is ".git"); NTFS drops trailing dots
// and spaces (".git. " is ".git"), names a stream after a colon
// (".git::$INDEX_ALLOCATION" is the directory .git) and gives ".git" the
// short name "GIT~1". Git refuses each of these spellings in a tree it
// checks out (core.protectHFS, core.protectNTFS); Sentinel takes each for
// the name it stands for, on every system, since the files may be reached
// through a mount of another system's file system.

// hfsIgnored are the code points HFS+ leaves out when it compares names
// (git's utf8.c next_hfs_char).
func hfsIgnored(r rune) bool {
	switch {
	case r >= 0x200c && r <= 0x200f, r >= 0x202a && r <= 0x202e, r >= 0x206a && r <= 0x206f, r == 0xfeff:
		return true
	}
	return false
}

// NameIs says whether the directory entry name may be want on some file
// system: the same in any case once HFS+'s ignored code points, an NTFS
// stream suffix (":…") and trailing dots and spaces are left out.
func NameIs(name, want string) bool {
	n := strings.Map(func(r rune) rune {
		if hfsIgnored(r) {
			return -1
		}
		return r
	}, name)
	if i := strings.IndexByte(n, ':'); i > 0 {
		n = n[:i]
	}
	n = strings.TrimRight(n, ". ")
	return n != "" && strings.EqualFold(n, want)
}

// IsDotGit says whether the entry name may be ".git" on some file system
// (NameIs), its NTFS short name GIT~1 included.
func IsDotGit(name string) bool {
	return NameIs(name, ".git") || NameIs(name, "git~1")
}
