package inside

import (
	"fmt"
	"os"
	"path/filepath"

	"golang.org/x/sys/unix"
)

// llFileAccess are the rights that concern a file's contents: a rule
// granting any of them over a denied file must be carved.
const llFileAccess = unix.LANDLOCK_ACCESS_FS_EXECUTE | unix.LANDLOCK_ACCESS_FS_READ_FILE |
	unix.LANDLOCK_ACCESS_FS_WRITE_FILE | unix.LANDLOCK_ACCESS_FS_TRUNCATE

// carveDenied rewrites the rules so no rule's hierarchy holds a denied
// file: a rule over a directory that holds one becomes a listing-only rule
// on that directory plus a rule for each entry, recursing toward the
// denied file and leaving it (and any entry that is the same inode) out.
// Symlinks among the entries get no rule of their own: the kernel checks
// where they lead. Runs inside the sandbox (the helper), on its view.
// Rules are merged by path, so locations named twice (/bin and /usr/bin)
// are listed once.
func carveDenied(rules []llRule, denied []DeniedFile) ([]llRule, error) {
	if len(denied) == 0 {
		return rules, nil
	}
	isDenied := func(st *unix.Stat_t) bool {
		for _, d := range denied {
			if d.Dev == st.Dev && d.Ino == st.Ino {
				return true
			}
		}
		return false
	}
	var out []llRule
	index := map[string]int{}
	emit := func(path string, access uint64) {
		if i, ok := index[path]; ok {
			out[i].access |= access
			return
		}
		index[path] = len(out)
		out = append(out, llRule{path, access})
	}
	var split func(dir string, access uint64, under []DeniedFile) error
	split = func(dir string, access uint64, under []DeniedFile) error {
		emit(dir, access&^llFileAccess)
		ents, err := os.ReadDir(dir)
		if err != nil {
			return fmt.Errorf("list %s to leave denied executables out: %w", dir, err)
		}
		for _, e := range ents {
			child := filepath.Join(dir, e.Name())
			var inner []DeniedFile
			exact := false
			for _, d := range under {
				if d.Path == child {
					exact = true
				} else if Within(d.Path, child) {
					inner = append(inner, d)
				}
			}
			if exact {
				continue
			}
			if len(inner) > 0 {
				if err := split(child, access, inner); err != nil {
					return err
				}
				continue
			}
			var st unix.Stat_t
			if err := unix.Lstat(child, &st); err != nil {
				continue // gone meanwhile: nothing to grant
			}
			if st.Mode&unix.S_IFMT == unix.S_IFLNK || isDenied(&st) {
				continue
			}
			emit(child, access)
		}
		return nil
	}
	for _, r := range rules {
		if r.access&llFileAccess == 0 {
			emit(r.path, r.access) // listing only: grants no file's contents
			continue
		}
		real, err := filepath.EvalSymlinks(r.path)
		if err != nil {
			continue // missing: the rule would grant nothing
		}
		var st unix.Stat_t
		if err := unix.Stat(real, &st); err != nil {
			continue
		}
		if isDenied(&st) {
			continue // the rule names a denied file itself
		}
		var under []DeniedFile
		for _, d := range denied {
			if Within(d.Path, real) {
				under = append(under, d)
			}
		}
		if len(under) == 0 || st.Mode&unix.S_IFMT != unix.S_IFDIR {
			emit(real, r.access)
			continue
		}
		if r.access&unix.LANDLOCK_ACCESS_FS_WRITE_FILE != 0 {
			return nil, fmt.Errorf("denied executable %s lies in the writable %s", under[0].Path, r.path)
		}
		if err := split(real, r.access, under); err != nil {
			return nil, err
		}
	}
	return out, nil
}
