package sandbox

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"time"

	"golang.org/x/sys/unix"

	"github.com/sentinelhq/sentinel/internal/hostbin"
	"github.com/sentinelhq/sentinel/sandbox/inside"
)

// Probe reports what this machine can enforce. It really starts a confined
// `true` under each backend (helper is the sentinel binary; empty means the
// running one), because only a trial shows what an AppArmor rule or a
// container runtime forbids.
func Probe(helper string) Capabilities {
	var c Capabilities
	abi := LandlockABI()
	ll := Check{Name: "landlock", OK: abi >= 1, Detail: fmt.Sprintf("ABI %d", abi)}
	if abi < 1 {
		ll.Detail = "not offered by this kernel"
		ll.Fix = "Linux ≥ 5.13 with CONFIG_SECURITY_LANDLOCK=y and landlock in the lsm= boot parameter"
	}
	c.Checks = append(c.Checks, ll)
	sc := Check{Name: "seccomp", OK: true, Detail: "filters available"}
	if _, err := unix.PrctlRetInt(unix.PR_GET_SECCOMP, 0, 0, 0, 0); err != nil {
		sc = Check{Name: "seccomp", Detail: err.Error(), Fix: "a kernel with CONFIG_SECCOMP_FILTER=y"}
	} else if !inside.SeccompFiltered() {
		sc = Check{Name: "seccomp", Detail: "no filter for this architecture in this build", Fix: "use an amd64 or arm64 build"}
	}
	c.Checks = append(c.Checks, sc)
	un := Check{Name: "user namespaces", OK: true, Detail: "enabled"}
	if err := checkUserNS(); err != nil {
		un = Check{Name: "user namespaces", Detail: "disabled", Fix: strings.TrimPrefix(err.Error(), "sandbox: ")}
	}
	c.Checks = append(c.Checks, un)
	for _, m := range []Mode{ModeBwrap, ModeNS} {
		ck := trial(helper, m)
		if ck.OK {
			c.Modes = append(c.Modes, m)
		}
		c.Checks = append(c.Checks, ck)
	}
	c.Checks = append(c.Checks, deniedExecCheck(helper, c.Modes))
	pty := Check{Name: "pty", OK: true, Detail: "/dev/ptmx opens"}
	if f, err := os.OpenFile("/dev/ptmx", os.O_RDWR, 0); err != nil {
		pty = Check{Name: "pty", Detail: err.Error(), Fix: "mount devpts on /dev/pts (coders run under a pseudo-terminal)"}
	} else {
		f.Close()
	}
	c.Checks = append(c.Checks, pty)
	return c
}

// trial runs `true` confined by backend m.
func trial(helper string, m Mode) Check {
	name := "sandbox " + string(m)
	if m == ModeBwrap {
		bw, err := hostbin.Find("bwrap") // the system's; nothing from PATH runs on the host
		if err != nil {
			return Check{Name: name, Detail: "bubblewrap not installed", Fix: "apt-get install bubblewrap (or dnf/pacman install bubblewrap); --sandbox ns works without it"}
		}
		if out, err := exec.Command(bw, "--version").Output(); err == nil {
			name += " (" + strings.TrimSpace(string(out)) + ")"
		}
	}
	ws, err := os.MkdirTemp("", "sentinel-doctor-")
	if err != nil {
		return Check{Name: name, Detail: err.Error(), Fix: "make the temp directory writable"}
	}
	defer os.RemoveAll(ws)
	s, err := Prepare(Profile{Workspace: ws, Net: NetNone}, Options{Mode: m, Helper: helper})
	if err != nil {
		return Check{Name: name, Detail: err.Error(), Fix: "see the message"}
	}
	defer s.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	cmd, err := s.Command(ctx, ws, "true")
	if err != nil {
		return Check{Name: name, Detail: err.Error()}
	}
	if out, err := cmd.CombinedOutput(); err != nil {
		return Check{Name: name, Detail: fmt.Sprintf("a confined `true` failed: %v %s", err, strings.TrimSpace(string(out))),
			Fix: "user namespaces may be blocked (AppArmor: sysctl kernel.apparmor_restrict_unprivileged_userns=0, or a container without them); or run with --sandbox off knowingly"}
	}
	return Check{Name: name, OK: true, Detail: "a confined `true` ran (Landlock, seccomp, namespaces)"}
}
