package sandbox

import (
	"fmt"
	"os"

	"github.com/landlock-lsm/go-landlock/landlock"
	llsys "github.com/landlock-lsm/go-landlock/landlock/syscall"
	"golang.org/x/sys/unix"
)

// Landlock access rights, grouped the way the sandbox grants them.
const (
	llRead = llsys.AccessFSExecute | llsys.AccessFSReadFile | llsys.AccessFSReadDir
	// llFileRights are the rights that make sense on a file (not a
	// directory); the kernel refuses a directory right on a file.
	llFileRights = llsys.AccessFSExecute | llsys.AccessFSWriteFile |
		llsys.AccessFSReadFile | llsys.AccessFSTruncate | llsys.AccessFSIoctlDev
	llDevRW = llsys.AccessFSReadFile | llsys.AccessFSWriteFile |
		llsys.AccessFSTruncate | llsys.AccessFSIoctlDev
	// llAll is every filesystem right up to ABI 5 (ioctl on device
	// files): what the sandbox handles, so anything not granted below is
	// denied. Later rights (ABI 9's connect to pathname unix sockets) are
	// not handled yet: handling one is a change of what the coder may do,
	// to be made on purpose with a test, not by a library upgrade.
	llAll = llsys.AccessFSExecute | llsys.AccessFSWriteFile | llsys.AccessFSReadFile | llsys.AccessFSReadDir |
		llsys.AccessFSRemoveDir | llsys.AccessFSRemoveFile | llsys.AccessFSMakeChar | llsys.AccessFSMakeDir |
		llsys.AccessFSMakeReg | llsys.AccessFSMakeSock | llsys.AccessFSMakeFifo | llsys.AccessFSMakeBlock |
		llsys.AccessFSMakeSym | llsys.AccessFSRefer | llsys.AccessFSTruncate | llsys.AccessFSIoctlDev
)

// landlockConfig is what the sandbox restricts: llAll and the ABI 6 IPC
// scopes (signals to, and abstract unix sockets of, processes outside). In
// best-effort mode go-landlock leaves out what an older kernel does not
// know; a kernel with no Landlock at all is refused by restrictLandlock.
var landlockConfig = landlock.Config{
	HandledAccessFS: llAll,
	Scoped:          llsys.ScopeSignal | llsys.ScopeAbstractUnixSocket,
}.BestEffort()

type llRule struct {
	path   string
	access landlock.AccessFSSet
}

// landlockRules are the paths the command may use, as seen inside the
// sandbox: system and configured locations read-only, the workspace, the
// agent's state and /tmp writable, and a handful of device files.
func landlockRules(sp helperSpec, rw landlock.AccessFSSet) []llRule {
	// Listing "/" and its descendants is harmless: the root holds only
	// what the profile shows, and READ_DIR grants no file contents.
	r := []llRule{{"/", llsys.AccessFSReadDir}}
	for _, p := range systemReadable {
		r = append(r, llRule{p, llRead})
	}
	for _, p := range append(append([]string{}, sp.Readable...), sp.ReadOnly...) {
		r = append(r, llRule{p, llRead})
	}
	for _, pl := range sp.Places {
		r = append(r, llRule{pl.Path, llRead})
	}
	r = append(r, llRule{"/dev", llsys.AccessFSReadDir})
	for _, d := range []string{"/dev/null", "/dev/zero", "/dev/full", "/dev/random", "/dev/urandom", "/dev/tty", "/dev/ptmx"} {
		r = append(r, llRule{d, llDevRW})
	}
	for _, p := range append([]string{sp.Workspace, "/tmp", "/dev/pts", "/dev/shm"}, sp.Writable...) {
		r = append(r, llRule{p, rw})
	}
	return r
}

// restrictLandlock confines the calling thread (and what it execs). The
// caller holds the OS thread locked until exec, as go-landlock's
// NewRulesetFD asks, and has set no-new-privs.
func restrictLandlock(sp helperSpec) error {
	abi := LandlockABI()
	if abi < 1 {
		return fmt.Errorf("the kernel offers no Landlock; run with --sandbox off knowingly")
	}
	rw := landlock.AccessFSSet(llAll)
	if abi < 2 {
		// Asking for "refer" on a kernel without it makes go-landlock's
		// best effort enforce nothing at all; without it, such a kernel
		// denies moving files between directories anyway.
		rw &^= llsys.AccessFSRefer
	}
	var rules []landlock.Rule
	for _, r := range landlockRules(sp, rw) {
		rule, ok, err := landlockRule(r)
		if err != nil {
			return err
		}
		if ok {
			rules = append(rules, rule)
		}
	}
	fd, flags, err := landlockConfig.NewRulesetFD(rules...)
	if err != nil {
		return err
	}
	if fd < 0 {
		// Best effort found nothing this kernel can enforce: refuse
		// rather than run unconfined.
		return fmt.Errorf("nothing to enforce on this kernel (Landlock ABI %d); run with --sandbox off knowingly", abi)
	}
	defer unix.Close(fd)
	if err := llsys.LandlockRestrictSelf(fd, flags); err != nil {
		return fmt.Errorf("restrict self: %w", err)
	}
	return nil
}

// landlockRule is r as a go-landlock rule, with the directory-only rights
// taken off when r.path is not a directory. ok is false for a location
// missing or closed to us: it grants nothing.
func landlockRule(r llRule) (landlock.Rule, bool, error) {
	st, err := os.Stat(r.path)
	if err != nil {
		if os.IsNotExist(err) || os.IsPermission(err) {
			return nil, false, nil
		}
		return nil, false, fmt.Errorf("stat %s: %w", r.path, err)
	}
	access := r.access
	if !st.IsDir() {
		access &= llFileRights
	}
	if access == 0 {
		return nil, false, nil
	}
	return landlock.PathAccess(access, r.path), true, nil
}
