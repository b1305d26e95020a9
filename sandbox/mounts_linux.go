package sandbox

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"

	"golang.org/x/sys/unix"
)

type mountKind int

const (
	mountBindRW   mountKind = iota // src bound writable at dst
	mountBindRO                    // src bound read-only at dst
	mountHideDir                   // an empty read-only tmpfs over dst
	mountHideFile                  // an empty read-only file over dst
)

type mountOp struct {
	kind     mountKind
	src, dst string
	dir      bool // dst is a directory (for creating the mount point)
}

// replacedDirs are host directories the sandbox replaces wholesale: /tmp by
// the private temp dir, /run (sockets of docker, dbus, agents…) by nothing.
var replacedDirs = []string{"/tmp", "/run", "/var/run"}

// planMounts lists, in order, the mounts that build the sandbox's view of
// the filesystem. Both backends apply the same plan. Only existing paths
// are mounted; the host view decides.
func planMounts(sp helperSpec) []mountOp {
	var plan []mountOp
	add := func(kind mountKind, src, dst string) {
		st, err := os.Stat(src)
		if err != nil {
			return
		}
		plan = append(plan, mountOp{kind: kind, src: src, dst: dst, dir: st.IsDir()})
	}
	add(mountBindRW, sp.TempDir, "/tmp")
	if st, err := os.Lstat("/run"); err == nil && st.IsDir() {
		plan = append(plan, mountOp{kind: mountHideDir, dst: "/run", dir: true})
	}
	add(mountBindRW, sp.Workspace, sp.Workspace)
	for _, w := range sp.Writable {
		add(mountBindRW, w, w)
	}
	for _, r := range sp.Readable {
		for _, d := range replacedDirs {
			if within(r, d) {
				add(mountBindRO, r, r)
				break
			}
		}
	}
	for _, r := range sp.ReadOnly {
		add(mountBindRO, r, r)
	}
	for _, h := range sp.Hidden {
		if st, err := os.Stat(h); err == nil {
			if st.IsDir() {
				plan = append(plan, mountOp{kind: mountHideDir, dst: h, dir: true})
			} else {
				// Not /dev/null: writes to a device pass a read-only mount.
				plan = append(plan, mountOp{kind: mountHideFile, src: sp.Empty, dst: h})
			}
		}
	}
	// A mount point cannot be renamed or removed, so each directory between
	// the workspace and a protected path is bound onto itself first: else
	// `mv .git .git2 && mkdir -p .git/hooks` would sidestep the protection.
	seen := map[string]bool{}
	for _, p := range sp.Protected {
		var anchors []string
		for a := filepath.Dir(p); a != sp.Workspace && within(a, sp.Workspace); a = filepath.Dir(a) {
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
	return plan
}

// applyMounts carries out the plan inside a fresh user+mount namespace (ns
// backend), then gives the pid namespace its own /proc, /dev/pts and
// /dev/shm. Sources are opened before anything is mounted, so a source under
// /tmp stays reachable after /tmp is replaced.
func applyMounts(plan []mountOp) error {
	if err := unix.Mount("", "/", "", unix.MS_REC|unix.MS_PRIVATE, ""); err != nil {
		return fmt.Errorf("make mounts private: %w", err)
	}
	srcs := make([]string, len(plan))
	for i, m := range plan {
		if m.src == "" {
			continue
		}
		fd, err := unix.Open(m.src, unix.O_PATH|unix.O_CLOEXEC, 0)
		if err != nil {
			return fmt.Errorf("open %s: %w", m.src, err)
		}
		defer unix.Close(fd)
		srcs[i] = "/proc/self/fd/" + strconv.Itoa(fd)
	}
	for i, m := range plan {
		if err := ensureMountPoint(m); err != nil {
			return err
		}
		switch m.kind {
		case mountBindRW, mountBindRO, mountHideFile:
			if err := unix.Mount(srcs[i], m.dst, "", unix.MS_BIND|unix.MS_REC, ""); err != nil {
				return fmt.Errorf("bind %s on %s: %w", m.src, m.dst, err)
			}
			if m.kind != mountBindRW {
				if err := remountRO(m.dst); err != nil {
					return err
				}
			}
		case mountHideDir:
			flags := uintptr(unix.MS_RDONLY | unix.MS_NOSUID | unix.MS_NODEV | unix.MS_NOEXEC)
			if err := unix.Mount("tmpfs", m.dst, "tmpfs", flags, "size=4k,mode=0555"); err != nil {
				return fmt.Errorf("hide %s: %w", m.dst, err)
			}
		}
	}
	if err := unix.Mount("proc", "/proc", "proc", unix.MS_NOSUID|unix.MS_NODEV|unix.MS_NOEXEC, ""); err != nil {
		return fmt.Errorf("mount /proc for the pid namespace: %w", err)
	}
	if err := unix.Mount("devpts", "/dev/pts", "devpts", unix.MS_NOSUID|unix.MS_NOEXEC, "newinstance,ptmxmode=0666,mode=0620"); err != nil {
		return fmt.Errorf("mount a private /dev/pts: %w", err)
	}
	if err := unix.Mount("/dev/pts/ptmx", "/dev/ptmx", "", unix.MS_BIND, ""); err != nil {
		return fmt.Errorf("bind /dev/ptmx: %w", err)
	}
	if _, err := os.Stat("/dev/shm"); err == nil {
		if err := unix.Mount("tmpfs", "/dev/shm", "tmpfs", unix.MS_NOSUID|unix.MS_NODEV, "mode=1777"); err != nil {
			return fmt.Errorf("mount a private /dev/shm: %w", err)
		}
	}
	return nil
}

// ensureMountPoint creates dst (a directory or an empty file) when it is
// missing, which happens for paths under a replaced directory.
func ensureMountPoint(m mountOp) error {
	if _, err := os.Lstat(m.dst); err == nil {
		return nil
	}
	if m.dir || m.kind == mountHideDir {
		return os.MkdirAll(m.dst, 0o755)
	}
	if err := os.MkdirAll(filepath.Dir(m.dst), 0o755); err != nil {
		return err
	}
	f, err := os.OpenFile(m.dst, os.O_CREATE|os.O_WRONLY, 0o644)
	if err != nil {
		return err
	}
	return f.Close()
}

// remountRO makes the bind mount at dst read-only, keeping the flags the
// kernel locks (nosuid, nodev, noexec) from the original mount.
func remountRO(dst string) error {
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
