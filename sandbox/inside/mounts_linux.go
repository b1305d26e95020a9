package inside

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"

	"golang.org/x/sys/unix"
)

type mountKind int

const (
	mountBindRW    mountKind = iota // src bound writable at dst
	mountBindRO                     // src bound read-only at dst
	mountHideDir                    // an empty read-only tmpfs over dst
	mountHideFile                   // an empty read-only file over dst
	mountSymlink                    // a symlink dst → src (merged-/usr systems)
	mountTmpfs                      // a fresh tmpfs at dst, writable until remounted (a spliced directory, places.go)
	mountRemountRO                  // make the mount at dst read-only
)

type mountOp struct {
	kind     mountKind
	src, dst string
	dir      bool // dst is a directory (for creating the mount point)
}

// planMounts lists, in order, what the sandbox's root holds. The root is an
// empty tmpfs: system locations and readable paths are bound read-only, the
// workspace and the agent's state writable, the private temp dir at /tmp;
// then Sentinel's state is made read-only, hidden paths emptied and
// protected paths pinned read-only. Both backends apply the same plan; the
// host's view decides what exists.
func planMounts(sp Spec) []mountOp {
	var binds, plan []mountOp
	var visible []string // host paths shown at the same path inside
	taken := map[string]bool{}
	bind := func(kind mountKind, src, dst string) {
		if !filepath.IsAbs(src) || !filepath.IsAbs(dst) {
			return // a relative path means the helper's directory, never a mount
		}
		if taken[dst] {
			return // the first (more specific) meaning of a path wins: /tmp stays private
		}
		taken[dst] = true
		st, err := os.Stat(src)
		if err != nil {
			return
		}
		binds = append(binds, mountOp{kind: kind, src: src, dst: dst, dir: st.IsDir()})
		if src == dst {
			visible = append(visible, dst)
		}
	}
	covered := func(p string) bool {
		for _, v := range visible {
			if Within(p, v) {
				return true
			}
		}
		return false
	}
	splice := spliceDirs(sp)
	for _, p := range systemReadable {
		if p == "/proc" {
			continue
		}
		st, err := os.Lstat(p)
		switch {
		case err != nil:
		case st.Mode()&os.ModeSymlink != 0:
			if target, err := os.Readlink(p); err == nil {
				plan = append(plan, mountOp{kind: mountSymlink, src: target, dst: p})
			}
		case splice[p]:
			taken[p] = true
			binds = append(binds, mountOp{kind: mountTmpfs, dst: p, dir: true})
		default:
			bind(mountBindRO, p, p)
		}
	}
	bind(mountBindRW, sp.TempDir, "/tmp")
	bind(mountBindRW, sp.Workspace, sp.Workspace)
	for _, w := range sp.Writable {
		bind(mountBindRW, w, w)
	}
	// Parents first: a readable path inside another one is shown by the
	// parent's (recursive) bind already, one mount fewer per nested entry
	// (PATH's ~/.cargo/bin under the toolchain root ~/.cargo). A path that
	// is a mount point of its own is still bound, so that it is made
	// read-only itself (the ns backend remounts only the bind's top).
	readable := slices.Clone(sp.Readable)
	slices.SortStableFunc(readable, func(a, b string) int {
		return strings.Count(a, "/") - strings.Count(b, "/")
	})
	var isMountPoint func(string) bool
	for _, r := range readable {
		if splice[r] {
			taken[r] = true
			binds = append(binds, mountOp{kind: mountTmpfs, dst: r, dir: true})
			continue
		}
		if covered(r) {
			if isMountPoint == nil {
				isMountPoint = hostMountPoints()
			}
			if !isMountPoint(r) {
				continue
			}
		}
		bind(mountBindRO, r, r)
	}
	// A spliced directory shows its entries one by one, read-only, except
	// those already given another meaning and the spliced ones below it.
	for _, d := range sortedKeys(splice) {
		entries, _ := os.ReadDir(d)
		for _, e := range entries {
			p := filepath.Join(d, e.Name())
			switch {
			case splice[p] && !taken[p]:
				// A spliced directory inside a spliced one (/etc/profile.d
				// for a place in it) is a tmpfs of its own, so it can be
				// made read-only like its parent.
				taken[p] = true
				binds = append(binds, mountOp{kind: mountTmpfs, dst: p, dir: true})
			case splice[p] || taken[p]:
			case e.Type()&os.ModeSymlink != 0:
				if target, err := os.Readlink(p); err == nil {
					taken[p] = true
					binds = append(binds, mountOp{kind: mountSymlink, src: target, dst: p})
				}
			default:
				bind(mountBindRO, p, p)
			}
		}
	}
	binds = append(binds, linkOps(sp, binds, taken)...)
	// Parents before children, so a writable root inside a readable one
	// (or the reverse) ends up as asked.
	sort.SliceStable(binds, func(i, j int) bool {
		return strings.Count(binds[i].dst, "/") < strings.Count(binds[j].dst, "/")
	})
	plan = append(plan, binds...)
	add := func(kind mountKind, src, dst string) {
		if st, err := os.Stat(src); err == nil {
			plan = append(plan, mountOp{kind: kind, src: src, dst: dst, dir: st.IsDir()})
		}
	}
	// Protected paths before the places and Sentinel's state: an anchor
	// bound from the host would undo a read-only mount below it.
	// A mount point cannot be renamed or removed, so each directory between
	// the writable root holding a protected path (the workspace, or another
	// writable root: the person's Go build cache in a writable ~/.cache) and
	// the path is bound onto itself first: else `mv .git .git2 && mkdir -p
	// .git/hooks` would sidestep the protection.
	seen := map[string]bool{}
	for _, p := range sp.Protected {
		root := ""
		if Within(p, sp.Workspace) {
			root = sp.Workspace
		}
		for _, w := range sp.Writable {
			if Within(p, w) && len(w) > len(root) {
				root = w
			}
		}
		var anchors []string
		for a := filepath.Dir(p); root != "" && a != root && Within(a, root); a = filepath.Dir(a) {
			anchors = append([]string{a}, anchors...)
		}
		for _, a := range anchors {
			if !seen[a] {
				seen[a] = true
				add(mountBindRW, a, a)
			}
		}
	}
	for _, p := range sp.Protected {
		add(mountBindRO, p, p)
	}
	for _, pl := range sp.Places {
		add(mountBindRO, pl.Source, pl.Path)
	}
	for _, r := range sp.ReadOnly {
		add(mountBindRO, r, r)
	}
	// Hidden paths last: a protected path, or a directory between it and
	// its writable root (bound onto itself from the host), may hold a
	// hidden one (web/.env beside web/.envrc), and a bind from the host
	// shows what is under it as it is there.
	insideHidden := func(h string) bool {
		for _, o := range sp.Hidden {
			if o != h && Within(h, o) {
				if _, err := os.Stat(o); err == nil {
					return true
				}
			}
		}
		return false
	}
	for _, h := range sp.Hidden {
		st, err := os.Stat(h)
		if err != nil || !covered(h) || insideHidden(h) {
			continue // not shown inside anyway, or emptied with its directory
		}
		if st.IsDir() {
			plan = append(plan, mountOp{kind: mountHideDir, dst: h, dir: true})
		} else {
			// Not /dev/null: writes to a device pass a read-only mount.
			plan = append(plan, mountOp{kind: mountHideFile, src: sp.Empty, dst: h})
		}
	}
	for _, d := range sortedKeys(splice) {
		plan = append(plan, mountOp{kind: mountRemountRO, dst: d, dir: true})
	}
	return append(plan, overlayStaging(sp)...)
}

// hostMountPoints says whether a path is a mount point this process sees
// (every path is one when mountinfo cannot be read: nothing is then left
// out).
func hostMountPoints() func(string) bool {
	b, err := os.ReadFile("/proc/self/mountinfo")
	if err != nil {
		return func(string) bool { return true }
	}
	set := map[string]bool{}
	for _, l := range strings.Split(string(b), "\n") {
		if f := strings.Fields(l); len(f) > 4 {
			set[unescapeMountinfo(f[4])] = true
		}
	}
	return func(p string) bool { return set[p] }
}

// unescapeMountinfo undoes mountinfo's octal escapes (\040 for a space).
func unescapeMountinfo(s string) string {
	if !strings.Contains(s, "\\") {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+3 < len(s) {
			if n, err := strconv.ParseUint(s[i+1:i+4], 8, 8); err == nil {
				b.WriteByte(byte(n))
				i += 3
				continue
			}
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

// applyMounts builds the plan on a fresh tmpfs at root inside a new user and
// mount namespace (ns backend) and pivots into it, like bubblewrap does.
// Sources are opened before anything is mounted.
func applyMounts(plan []mountOp, root string) error {
	if err := unix.Mount("", "/", "", unix.MS_REC|unix.MS_PRIVATE, ""); err != nil {
		return fmt.Errorf("make mounts private: %w", err)
	}
	srcs := make([]string, len(plan))
	for i, m := range plan {
		if m.src == "" || m.kind == mountSymlink {
			continue
		}
		fd, err := unix.Open(m.src, unix.O_PATH|unix.O_CLOEXEC, 0)
		if err != nil {
			return fmt.Errorf("open %s: %w", m.src, err)
		}
		defer unix.Close(fd)
		srcs[i] = "/proc/self/fd/" + strconv.Itoa(fd)
	}
	if err := unix.Mount("tmpfs", root, "tmpfs", unix.MS_NOSUID|unix.MS_NODEV, "mode=0755"); err != nil {
		return fmt.Errorf("root tmpfs: %w", err)
	}
	if err := setupDev(root + "/dev"); err != nil {
		return err
	}
	points := mountPoints{root: true}
	for i, m := range plan {
		dst := root + m.dst
		if err := points.ensure(m, dst); err != nil {
			return err
		}
		switch m.kind {
		case mountSymlink:
			if err := os.Symlink(m.src, dst); err != nil {
				return err
			}
		case mountBindRW, mountBindRO, mountHideFile:
			if err := unix.Mount(srcs[i], dst, "", unix.MS_BIND|unix.MS_REC, ""); err != nil {
				return fmt.Errorf("bind %s on %s: %w", m.src, m.dst, err)
			}
			if m.kind != mountBindRW {
				if err := remountRO(dst); err != nil {
					return err
				}
			}
		case mountTmpfs:
			if err := unix.Mount("tmpfs", dst, "tmpfs", unix.MS_NOSUID|unix.MS_NODEV, "mode=0755"); err != nil {
				return fmt.Errorf("tmpfs %s: %w", m.dst, err)
			}
		case mountRemountRO:
			if err := unix.Mount("", dst, "", unix.MS_REMOUNT|unix.MS_RDONLY|unix.MS_NOSUID|unix.MS_NODEV, ""); err != nil {
				return fmt.Errorf("make %s read-only: %w", m.dst, err)
			}
		case mountHideDir:
			flags := uintptr(unix.MS_RDONLY | unix.MS_NOSUID | unix.MS_NODEV | unix.MS_NOEXEC)
			if err := unix.Mount("tmpfs", dst, "tmpfs", flags, "size=4k,mode=0555"); err != nil {
				return fmt.Errorf("hide %s: %w", m.dst, err)
			}
		}
		points.covered(dst)
	}
	if err := points.dir(root + "/proc"); err != nil {
		return err
	}
	if err := unix.Mount("proc", root+"/proc", "proc", unix.MS_NOSUID|unix.MS_NODEV|unix.MS_NOEXEC, ""); err != nil {
		return fmt.Errorf("mount /proc for the pid namespace: %w", err)
	}
	old := root + "/.old-root"
	if err := os.Mkdir(old, 0o700); err != nil {
		return err
	}
	if err := unix.PivotRoot(root, old); err != nil {
		return fmt.Errorf("pivot_root: %w", err)
	}
	if err := unix.Chdir("/"); err != nil {
		return err
	}
	if err := unix.Unmount("/.old-root", unix.MNT_DETACH); err != nil {
		return fmt.Errorf("detach the host's root: %w", err)
	}
	if err := os.Remove("/.old-root"); err != nil {
		return err
	}
	if err := unix.Mount("", "/", "", unix.MS_REMOUNT|unix.MS_RDONLY|unix.MS_NOSUID|unix.MS_NODEV, ""); err != nil {
		return fmt.Errorf("make the root read-only: %w", err)
	}
	return nil
}

// setupDev makes a minimal /dev: the harmless device nodes, a private pty
// instance and /dev/shm (what bwrap --dev makes).
func setupDev(dev string) error {
	if err := os.MkdirAll(dev, 0o755); err != nil {
		return err
	}
	if err := unix.Mount("tmpfs", dev, "tmpfs", unix.MS_NOSUID|unix.MS_NOEXEC, "mode=0755"); err != nil {
		return fmt.Errorf("/dev tmpfs: %w", err)
	}
	for _, n := range []string{"null", "zero", "full", "random", "urandom", "tty"} {
		if err := emptyFile(dev + "/" + n); err != nil {
			return err
		}
		if err := unix.Mount("/dev/"+n, dev+"/"+n, "", unix.MS_BIND, ""); err != nil {
			return fmt.Errorf("bind /dev/%s: %w", n, err)
		}
	}
	for _, d := range []string{"pts", "shm"} {
		if err := os.Mkdir(dev+"/"+d, 0o755); err != nil {
			return err
		}
	}
	if err := unix.Mount("devpts", dev+"/pts", "devpts", unix.MS_NOSUID|unix.MS_NOEXEC, "newinstance,ptmxmode=0666,mode=0620"); err != nil {
		return fmt.Errorf("mount a private /dev/pts: %w", err)
	}
	if err := unix.Mount("tmpfs", dev+"/shm", "tmpfs", unix.MS_NOSUID|unix.MS_NODEV, "mode=1777"); err != nil {
		return fmt.Errorf("mount a private /dev/shm: %w", err)
	}
	for link, target := range map[string]string{"ptmx": "pts/ptmx", "fd": "/proc/self/fd", "stdin": "/proc/self/fd/0", "stdout": "/proc/self/fd/1", "stderr": "/proc/self/fd/2"} {
		if err := os.Symlink(target, dev+"/"+link); err != nil {
			return err
		}
	}
	return nil
}

// mountPoints makes what mounts land on in the new root: directories, and
// empty files for a file's bind. It remembers each directory it made or
// found, so a path shared by many mount points is asked of the kernel
// once, and it makes files with bare system calls (os.OpenFile would
// register each with the poller, for nothing).
type mountPoints map[string]bool

// ensure creates dst (a directory or an empty file) when it is missing
// from the new root.
func (mp mountPoints) ensure(m mountOp, dst string) error {
	if _, err := os.Lstat(dst); err == nil {
		return nil
	}
	if m.kind == mountSymlink {
		return mp.dir(filepath.Dir(dst))
	}
	if m.dir || m.kind == mountHideDir {
		return mp.dir(dst)
	}
	if err := mp.dir(filepath.Dir(dst)); err != nil {
		return err
	}
	return emptyFile(dst)
}

// dir is os.MkdirAll(p, 0o755), asking the kernel only for what it has not
// made or found before.
func (mp mountPoints) dir(p string) error {
	if mp[p] {
		return nil
	}
	if parent := filepath.Dir(p); parent != p {
		if err := mp.dir(parent); err != nil {
			return err
		}
	}
	if err := unix.Mkdir(p, 0o755); err != nil && err != unix.EEXIST {
		return &os.PathError{Op: "mkdir", Path: p, Err: err}
	}
	mp[p] = true
	return nil
}

// covered forgets what it knew below dst, where something was just
// mounted: what lies there now is the mount's.
func (mp mountPoints) covered(dst string) {
	for p := range mp {
		if p != dst && Within(p, dst) {
			delete(mp, p)
		}
	}
}

// emptyFile creates p, empty, if it is missing.
func emptyFile(p string) error {
	fd, err := unix.Open(p, unix.O_CREAT|unix.O_WRONLY|unix.O_CLOEXEC, 0o644)
	if err != nil {
		return &os.PathError{Op: "open", Path: p, Err: err}
	}
	return unix.Close(fd)
}

// remountRO makes the bind mount at dst read-only, with every mount below
// it (a recursive bind brings the host's submounts along, and a plain
// remount would leave them writable), in one mount_setattr; the flags the
// kernel locks (nosuid, nodev, noexec, atime) are left as they are. A
// kernel without mount_setattr (before 5.12), or a container that refuses
// it, gets the remount of the top mount alone, keeping the locked flags.
func remountRO(dst string) error {
	err := unix.MountSetattr(unix.AT_FDCWD, dst, unix.AT_RECURSIVE, &unix.MountAttr{Attr_set: unix.MOUNT_ATTR_RDONLY})
	if err == nil {
		return nil
	}
	if !errors.Is(err, unix.ENOSYS) && !errors.Is(err, unix.EPERM) {
		return fmt.Errorf("make %s read-only: %w", dst, err)
	}
	var st unix.Statfs_t
	if err := unix.Statfs(dst, &st); err != nil {
		return fmt.Errorf("statfs %s: %w", dst, err)
	}
	flags := uintptr(unix.MS_BIND | unix.MS_REMOUNT | unix.MS_RDONLY)
	for _, f := range []struct{ st, ms uintptr }{
		{unix.ST_NOSUID, unix.MS_NOSUID}, {unix.ST_NODEV, unix.MS_NODEV}, {unix.ST_NOEXEC, unix.MS_NOEXEC},
		{unix.ST_NOATIME, unix.MS_NOATIME}, {unix.ST_NODIRATIME, unix.MS_NODIRATIME}, {unix.ST_RELATIME, unix.MS_RELATIME},
	} {
		if uintptr(st.Flags)&f.st != 0 {
			flags |= f.ms
		}
	}
	if err := unix.Mount("", dst, "", flags, ""); err != nil {
		return fmt.Errorf("make %s read-only: %w", dst, err)
	}
	return nil
}
