package sandbox

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
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

// overlaySpec is the helper's part of an overlay workspace: the layers' host
// paths and the protected paths inside the workspace, pinned read-only on
// the merged view (the host's upper directory does not have them).
type overlaySpec struct {
	Lower     string   `json:"lower"`
	Work      string   `json:"work"`
	Protected []string `json:"protected,omitempty"`
}

// overlayCaps are what the helper needs under bubblewrap to mount the
// overlay and pin the protected paths (overlayfs makes its work directory
// with the mounter's credentials): the helper drops every one of them, and
// the bounding set with CAP_SETPCAP, before the command starts.
var overlayCaps = []string{"--cap-add", "CAP_SYS_ADMIN", "--cap-add", "CAP_DAC_OVERRIDE", "--cap-add", "CAP_SETPCAP"}

// overlayStaging are the plan's last steps for an overlay workspace.
func overlayStaging(sp helperSpec) []mountOp {
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

// splitOverlayProtected moves the protected paths inside the workspace to
// the overlay's part of the spec: they exist only on the merged view.
func splitOverlayProtected(sp *helperSpec, o *Overlay) {
	var rest, inside []string
	for _, p := range sp.Protected {
		if within(p, sp.Workspace) {
			inside = append(inside, p)
		} else {
			rest = append(rest, p)
		}
	}
	sp.Protected = rest
	sp.Overlay = &overlaySpec{Lower: o.Lower, Work: o.Work, Protected: inside}
}

// mountOverlay mounts the workspace overlay at sp.Workspace (the upper
// dir, bound there by the plan) from the staged layers, unmounts the
// staging, and pins the protected paths read-only. It runs in stage 1
// before anything is confined, under both backends.
func mountOverlay(sp helperSpec) error {
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
		for a := filepath.Dir(p); a != workspace && within(a, workspace); a = filepath.Dir(a) {
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

// View runs a command (git, in the runner) on the merged view of an
// overlay workspace after its coder ended: a read-only overlay of Upper (the
// coder's changes, whiteouts included) over Lower, mounted at Upper's own
// path in a private user and mount namespace, so the command sees at that
// path exactly the tree the coder left. Helper is the sentinel binary.
type View struct {
	Helper string
	Lower  string
	Upper  string
}

type viewSpec struct {
	Lower string `json:"lower"`
	Upper string `json:"upper"`
}

// Wrap turns cmd (its Path and Args already set) into the same command run
// through the view helper. cmd.Dir should be at or under Upper.
func (v View) Wrap(cmd *exec.Cmd) {
	js, _ := json.Marshal(viewSpec{Lower: v.Lower, Upper: v.Upper})
	args := append([]string{v.Helper, HelperArg, "view", string(js), "--"}, cmd.Args...)
	cmd.Path, cmd.Args, cmd.Err = v.Helper, args, nil
	uid, gid := os.Getuid(), os.Getgid()
	cmd.SysProcAttr = &syscall.SysProcAttr{
		Cloneflags: syscall.CLONE_NEWUSER | syscall.CLONE_NEWNS,
		// The same ids inside, so git's index stat data (uid, gid) matches.
		UidMappings:                []syscall.SysProcIDMap{{ContainerID: uid, HostID: uid, Size: 1}},
		GidMappings:                []syscall.SysProcIDMap{{ContainerID: gid, HostID: gid, Size: 1}},
		GidMappingsEnableSetgroups: false,
		AmbientCaps:                []uintptr{unix.CAP_SYS_ADMIN},
		Pdeathsig:                  syscall.SIGKILL,
	}
}

// viewMain is the view helper: mount, drop every capability, exec argv.
func viewMain(js string, argv []string) int {
	var v viewSpec
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

var overlayProbe struct {
	sync.Mutex
	done map[string]error
}

// OverlayWorks reports whether an overlay workspace works here under the
// sandbox mode: with a lower layer in lowerScratch and an upper in
// upperScratch (directories Sentinel owns), a sandboxed command writes
// through it and a View reads the result back. nil when it does. The
// answer is kept for the life of the process.
func OverlayWorks(ctx context.Context, helper string, mode Mode, lowerScratch, upperScratch string) error {
	overlayProbe.Lock()
	defer overlayProbe.Unlock()
	key := helper + "\x00" + string(mode) + "\x00" + lowerScratch + "\x00" + upperScratch
	if err, ok := overlayProbe.done[key]; ok {
		return err
	}
	err := probeOverlay(ctx, helper, mode, lowerScratch, upperScratch)
	if overlayProbe.done == nil {
		overlayProbe.done = map[string]error{}
	}
	overlayProbe.done[key] = err
	return err
}

func probeOverlay(ctx context.Context, helper string, mode Mode, lowerScratch, upperScratch string) error {
	if err := checkUserNS(); err != nil {
		return err
	}
	var lower, parent string
	for _, d := range []struct {
		in  string
		out *string
	}{{lowerScratch, &lower}, {upperScratch, &parent}} {
		dir, err := os.MkdirTemp(d.in, "overlay-probe-*")
		if err != nil {
			return err
		}
		defer func() { chmodDirs(dir); os.RemoveAll(dir) }()
		*d.out = dir
	}
	upper, work := filepath.Join(parent, "ws"), filepath.Join(parent, "ws.ovlwork")
	for _, d := range []string{upper, work} {
		if err := os.Mkdir(d, 0o700); err != nil {
			return err
		}
	}
	if err := os.WriteFile(filepath.Join(lower, "probe"), []byte("lower\n"), 0o600); err != nil {
		return err
	}
	sb, err := Prepare(Profile{Workspace: upper, Overlay: &Overlay{Lower: lower, Work: work}, Net: NetNone}, Options{Mode: mode, Helper: helper})
	if err != nil {
		return err
	}
	defer sb.Close()
	run, err := sb.Command(ctx, upper, "/bin/sh", "-c", "read line < probe && [ \"$line\" = lower ] && echo upper > probe")
	if err != nil {
		return err
	}
	if out, err := run.CombinedOutput(); err != nil {
		return fmt.Errorf("an overlay workspace under the %s sandbox: %v: %s", sb.Mode(), err, strings.TrimSpace(string(out)))
	}
	cmd := exec.CommandContext(ctx, "cat", "probe")
	cmd.Dir = upper
	View{Helper: helper, Lower: lower, Upper: upper}.Wrap(cmd)
	out, err := cmd.CombinedOutput()
	if err != nil {
		return fmt.Errorf("overlay view: %v: %s", err, strings.TrimSpace(string(out)))
	}
	if string(out) != "upper\n" {
		return fmt.Errorf("overlay view: read %q", out)
	}
	return nil
}

// chmodDirs makes every directory under dir writable again (overlayfs
// leaves a mode-0 directory in its work dir), so it can be removed.
func chmodDirs(dir string) {
	_ = filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if d != nil && d.IsDir() {
			_ = os.Chmod(p, 0o700)
		}
		return nil
	})
}
