package inside

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"syscall"

	"golang.org/x/sys/unix"
)

// The overlay's layers must be mounts of the namespace that mounts the
// overlay (the kernel refuses layers from another mount namespace), so the
// mount plan binds the lower checkout (read-only) and the work dir at a
// staging place in the new root; the helper mounts the overlay from there
// and unmounts the staging before anything else runs. The lower lives in
// Sentinel's state directory, hidden inside, and is never visible to the
// command.
const overlayStagingDir = "/.sentinel-overlay"

// overlayStaging are the plan's last steps for an overlay workspace.
func overlayStaging(sp Spec) []mountOp {
	if sp.Overlay == nil {
		return nil
	}
	return []mountOp{
		{kind: mountBindRO, src: sp.Overlay.Lower, dst: overlayStagingDir + "/lower", dir: true},
		// overlayfs wants the upper and work dirs on one mount: their
		// common parent is staged, and the workspace's own bind is where
		// the overlay is mounted.
		{kind: mountBindRW, src: filepath.Dir(sp.Workspace), dst: overlayStagingDir + "/rw", dir: true},
	}
}

// mountOverlay mounts the workspace overlay at sp.Workspace (the upper
// dir, bound there by the plan) from the staged layers, unmounts the
// staging, and pins the protected paths read-only. It runs in stage 1
// before anything is confined, under both backends.
func mountOverlay(sp Spec) error {
	rw := overlayStagingDir + "/rw/"
	opts := "lowerdir=" + overlayStagingDir + "/lower,upperdir=" + rw + filepath.Base(sp.Workspace) +
		",workdir=" + rw + filepath.Base(sp.Overlay.Work) + ",userxattr"
	if err := unix.Mount("overlay", sp.Workspace, "overlay", unix.MS_NOSUID|unix.MS_NODEV, opts); err != nil {
		return fmt.Errorf("mount the workspace overlay on %s: %w", sp.Workspace, err)
	}
	for _, d := range []string{"lower", "rw"} {
		if err := unix.Unmount(overlayStagingDir+"/"+d, unix.MNT_DETACH); err != nil {
			return fmt.Errorf("unmount the overlay's staged %s layer: %w", d, err)
		}
	}
	return pinProtected(sp.Workspace, sp.Overlay.Protected)
}

// pinProtected binds each directory between the workspace and a protected
// path onto itself (a mount point cannot be renamed away) and the protected
// path read-only, as planMounts does for a plain workspace.
func pinProtected(workspace string, protected []string) error {
	seen := map[string]bool{}
	bindSelf := func(p string, ro bool) error {
		st, err := os.Lstat(p)
		if errors.Is(err, os.ErrNotExist) {
			return nil
		}
		if err != nil {
			return err
		}
		if st.Mode()&os.ModeSymlink != 0 {
			return fmt.Errorf("protected path %s is a symlink in the workspace", p)
		}
		if err := unix.Mount(p, p, "", unix.MS_BIND|unix.MS_REC, ""); err != nil {
			return fmt.Errorf("bind %s: %w", p, err)
		}
		if ro {
			return remountRO(p)
		}
		return nil
	}
	for _, p := range protected {
		var anchors []string
		for a := filepath.Dir(p); a != workspace && Within(a, workspace); a = filepath.Dir(a) {
			anchors = append([]string{a}, anchors...)
		}
		for _, a := range anchors {
			if !seen[a] {
				seen[a] = true
				if err := bindSelf(a, false); err != nil {
					return err
				}
			}
		}
	}
	for _, p := range protected {
		if err := bindSelf(p, true); err != nil {
			return err
		}
	}
	return nil
}

// ViewSpec is what the view helper (the sandbox's View) needs: the
// overlay's read-only layers.
type ViewSpec struct {
	Lower string `json:"lower"`
	Upper string `json:"upper"`
}

// viewMain is the view helper: mount, drop every capability, exec argv.
func viewMain(js string, argv []string) int {
	var v ViewSpec
	if err := json.Unmarshal([]byte(js), &v); err != nil || !filepath.IsAbs(v.Lower) || !filepath.IsAbs(v.Upper) {
		return helperFail("bad view spec", err)
	}
	runtime.LockOSThread() // capabilities are per thread; exec from this one
	var fds []int
	for _, d := range []string{v.Upper, v.Lower} {
		fd, err := unix.Open(d, unix.O_PATH|unix.O_DIRECTORY|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0)
		if err != nil {
			return helperFail("overlay view layer "+d, err)
		}
		fds = append(fds, fd)
	}
	// Two lower layers and no upper: read-only. Nothing on it may run or
	// act as a device.
	opts := "lowerdir=/proc/self/fd/" + strconv.Itoa(fds[0]) + ":/proc/self/fd/" + strconv.Itoa(fds[1]) + ",userxattr"
	if err := unix.Mount("", "/", "", unix.MS_REC|unix.MS_PRIVATE, ""); err != nil {
		return helperFail("make mounts private", err)
	}
	if err := unix.Mount("overlay", v.Upper, "overlay", unix.MS_RDONLY|unix.MS_NOSUID|unix.MS_NODEV|unix.MS_NOEXEC, opts); err != nil {
		return helperFail("mount the overlay view", err)
	}
	for _, fd := range fds {
		unix.Close(fd)
	}
	if cwd, err := unix.Getwd(); err == nil {
		if err := unix.Chdir(cwd); err != nil { // onto the view, not the directory under it
			return helperFail("working directory", err)
		}
	}
	if err := dropCapabilities(); err != nil {
		return helperFail("drop capabilities", err)
	}
	path, err := exec.LookPath(argv[0])
	if err != nil {
		return helperFail("overlay view", err)
	}
	err = syscall.Exec(path, argv, os.Environ())
	return helperFail("exec "+argv[0], err)
}
