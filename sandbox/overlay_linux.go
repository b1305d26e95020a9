package sandbox

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"

	"golang.org/x/sys/unix"

	"github.com/sentinelhq/sentinel/internal/hostbin"
	"github.com/sentinelhq/sentinel/sandbox/inside"
)

// overlayCaps are what the helper needs under bubblewrap to mount the
// overlay and pin the protected paths (overlayfs makes its work directory
// with the mounter's credentials): the helper drops every one of them, and
// the bounding set with CAP_SETPCAP, before the command starts.
var overlayCaps = []string{"--cap-add", "CAP_SYS_ADMIN", "--cap-add", "CAP_DAC_OVERRIDE", "--cap-add", "CAP_SETPCAP"}

// splitOverlayProtected moves the protected paths inside the workspace to
// the overlay's part of the spec: they exist only on the merged view.
func splitOverlayProtected(sp *inside.Spec, o *Overlay) {
	var rest, in []string
	for _, p := range sp.Protected {
		if within(p, sp.Workspace) {
			in = append(in, p)
		} else {
			rest = append(rest, p)
		}
	}
	sp.Protected = rest
	sp.Overlay = &inside.OverlaySpec{Lower: o.Lower, Work: o.Work, Protected: in}
}

// View runs a command (git, in the runner) on the merged view of an
// overlay workspace after its coder ended: a read-only overlay of Upper (the
// coder's changes, whiteouts included) over Lower, mounted at Upper's own
// path in a private user and mount namespace, so the command sees at that
// path exactly the tree the coder left. Helper is sentinel-helper or the
// sentinel binary (both answer the view).
type View struct {
	Helper string
	Lower  string
	Upper  string
}

// Wrap turns cmd (its Path and Args already set) into the same command run
// through the view helper. cmd.Dir should be at or under Upper.
func (v View) Wrap(cmd *exec.Cmd) {
	js, _ := json.Marshal(inside.ViewSpec{Lower: v.Lower, Upper: v.Upper})
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
	cat, err := hostbin.Find("cat")
	if err != nil {
		return err
	}
	cmd := exec.CommandContext(ctx, cat, "probe")
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
