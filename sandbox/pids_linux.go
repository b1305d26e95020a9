package sandbox

import (
	"bufio"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// A pids limit on every sandbox: a fork bomb inside must not take the
// machine. Where Sentinel may make a cgroup (root, or a delegated cgroup
// v2 subtree) each sandbox gets a pids cgroup of its own with pids.max set,
// which every command's helper joins before it starts the command (through
// the cgroup.procs file Sentinel opened, fd 5); a cgroup bounds root too.
// Everywhere, the helper also sets RLIMIT_NPROC, which inside the
// sandbox's user namespace counts that namespace's processes only (it does
// not bind the host's root: the cgroup is what does there).

// DefaultPidsMax is the pids limit when the profile sets none.
const DefaultPidsMax = 4096

// pidsMax is the profile's limit with the default applied (0: none).
func (p Profile) pidsMax() int {
	switch {
	case p.PidsMax < 0:
		return 0
	case p.PidsMax == 0:
		return DefaultPidsMax
	}
	return p.PidsMax
}

// pidsCgroupRoots are where a pids controller may be mounted: cgroup v2's
// unified hierarchy, and v1's pids hierarchy.
var pidsCgroupRoots = []struct{ mount, v1name string }{
	{"/sys/fs/cgroup", ""}, {"/sys/fs/cgroup/unified", ""}, {"/sys/fs/cgroup/pids", "pids"},
}

// makePidsCgroup makes a pids cgroup below this process's own with
// pids.max = max, and opens its cgroup.procs for the helpers. It returns
// the cgroup's directory, or an error saying why there is none.
func makePidsCgroup(max int) (string, *os.File, error) {
	own, err := ownCgroups()
	if err != nil {
		return "", nil, err
	}
	var why []string
	for _, r := range pidsCgroupRoots {
		rel, ok := own[r.v1name]
		if !ok {
			continue
		}
		base := filepath.Join(r.mount, rel)
		if r.v1name == "" {
			b, err := os.ReadFile(filepath.Join(r.mount, "cgroup.controllers"))
			if err != nil || !strings.Contains(" "+string(b)+" ", " pids ") {
				continue
			}
			// v2: the controller must be enabled for the children.
			_ = os.WriteFile(filepath.Join(base, "cgroup.subtree_control"), []byte("+pids"), 0)
		} else if _, err := os.Stat(filepath.Join(base, "pids.max")); err != nil && rel != "/" {
			continue
		}
		var b [6]byte
		_, _ = rand.Read(b[:])
		dir := filepath.Join(base, "sentinel-sbx-"+hex.EncodeToString(b[:]))
		if err := os.Mkdir(dir, 0o755); err != nil {
			why = append(why, err.Error())
			continue
		}
		procs, err := os.OpenFile(filepath.Join(dir, "cgroup.procs"), os.O_WRONLY, 0)
		if err == nil {
			err = os.WriteFile(filepath.Join(dir, "pids.max"), []byte(strconv.Itoa(max)), 0)
		}
		if err != nil {
			if procs != nil {
				procs.Close()
			}
			os.Remove(dir)
			why = append(why, err.Error())
			continue
		}
		return dir, procs, nil
	}
	if len(why) == 0 {
		why = append(why, "no pids controller here")
	}
	return "", nil, fmt.Errorf("no pids cgroup: %s", strings.Join(why, "; "))
}

// ownCgroups maps each hierarchy of /proc/self/cgroup ("" for v2, else its
// v1 controller names one by one) to this process's cgroup in it.
func ownCgroups() (map[string]string, error) {
	f, err := os.Open("/proc/self/cgroup")
	if err != nil {
		return nil, err
	}
	defer f.Close()
	out := map[string]string{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		parts := strings.SplitN(sc.Text(), ":", 3)
		if len(parts) != 3 {
			continue
		}
		if parts[1] == "" {
			out[""] = parts[2]
			continue
		}
		for _, c := range strings.Split(parts[1], ",") {
			out[c] = parts[2]
		}
	}
	return out, sc.Err()
}

// limitPids sets up the sandbox's pids limit (see above); a machine with
// no cgroup Sentinel may make keeps the rlimit alone, and says so.
func (s *Sandbox) limitPids() {
	max := s.p.pidsMax()
	if s.mode == ModeOff || max == 0 {
		return
	}
	dir, procs, err := makePidsCgroup(max)
	if err != nil {
		s.pidsNote = fmt.Sprintf("processes ≤ %d by RLIMIT_NPROC only (%v)", max, err)
		return
	}
	s.pidsCgroup, s.pidsProcs = dir, procs
	s.pidsNote = fmt.Sprintf("processes ≤ %d (pids cgroup)", max)
}

// removePids removes the pids cgroup (once its processes are gone).
func (s *Sandbox) removePids() {
	if s.pidsProcs != nil {
		s.pidsProcs.Close()
		s.pidsProcs = nil
	}
	if s.pidsCgroup != "" {
		_ = os.Remove(s.pidsCgroup)
	}
}

// PidsLimit says how the sandbox bounds its processes ("" with none).
func (s *Sandbox) PidsLimit() string { return s.pidsNote }

// pidsFiles extends a helper's extra files so that fd 5 is the pids
// cgroup's cgroup.procs (fds 3 and 4 filled with /dev/null when unused).
func (s *Sandbox) pidsFiles(files []*os.File) ([]*os.File, error) {
	if s.pidsProcs == nil {
		return files, nil
	}
	for len(files) < 2 {
		if s.devNull == nil {
			f, err := os.Open(os.DevNull)
			if err != nil {
				return nil, err
			}
			s.devNull = f
		}
		files = append(files, s.devNull)
	}
	return append(files, s.pidsProcs), nil
}
