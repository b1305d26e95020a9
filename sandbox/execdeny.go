package sandbox

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/sentinelhq/sentinel/sandbox/inside"
)

// Denied executables ([service] denied_executables, Profile.DeniedExecutables)
// are refused by the kernel inside the sandbox, on Linux by Landlock; the
// exec watcher (inside/execdeny_notify_linux.go, seccomp user notification) only
// witnesses refusals and catches byte-identical copies brought in. Why the
// wall is Landlock and not the seccomp supervisor:
//
//   - Landlock's execute right is an allow-list per file hierarchy, so a
//     location holding a denied program is not granted as a whole: the
//     sandbox grants its entries one by one, leaving out the denied files
//     (and every other name for the same inode there), down the path to
//     them (inside's carveDenied). The kernel checks the file it is about to run,
//     after every symlink, so /usr/bin/nc, nc through PATH, a symlink to
//     it, /proc/self/root/usr/bin/nc, `sh -c 'exec nc'`, `env nc` and
//     python's os.execv all get EACCES, with no window between check and
//     use.
//   - The denied file is left without the read right as well: it cannot be
//     copied (`cp /usr/bin/nc /tmp/x`), read into a new file, or run by the
//     dynamic loader (`ld.so /usr/bin/nc`, which needs only read). A hard
//     link to it from a writable place is refused by the kernel across
//     mounts (every writable place is its own mount inside).
//   - So the writable places (workspace, /tmp, agent state) keep their
//     execute right: builds that run what they made (go test) keep working.
//   - A seccomp supervisor reading execve's path from the process's memory
//     decides on bytes the process can change after the check (another
//     thread rewrites the string, or a rename swaps the file): the kernel's
//     own documentation says SECCOMP_USER_NOTIF_FLAG_CONTINUE must not be
//     used for security decisions. Landlock has no such window.
//
// Cost: none without a deny list. With one, each command's start adds the
// carve (a directory listing and one rule per entry of each directory on
// the way to a denied file: about a thousand rules for /usr/bin) and every
// exec inside waits for the watcher's answer.
//
// A multi-call binary (busybox, toybox) that provides a denied name is
// denied as a whole: its shell can run the applet without any exec, so
// argv[0] is no boundary.
//
// What this cannot stop, written down in SECURITY.md: the same program
// brought in anew (downloaded through an allowed host, or rebuilt from
// source), or another program with the same abilities (a scripting
// language's sockets for nc). A deny list names programs, not abilities.

// deniedFile is one file the sandbox refuses to run or read (inside.DeniedFile).
type deniedFile = inside.DeniedFile

// multiCallNames are binaries whose applets are chosen by argv[0] or
// argv[1] and whose shells run applets without exec.
var multiCallNames = []string{"busybox", "toybox"}

// checkDeniedEntries refuses entries that are neither a program name nor an
// absolute path.
func checkDeniedEntries(list []string) error {
	for _, e := range list {
		switch {
		case strings.TrimSpace(e) == "":
			return fmt.Errorf("sandbox: denied_executables has an empty entry; remove it")
		case filepath.IsAbs(e):
		case strings.ContainsRune(e, '/'):
			return fmt.Errorf("sandbox: denied_executables entry %q: want a program name (nc) or an absolute path (/usr/bin/nc)", e)
		}
	}
	return nil
}

// DeniedSummary is a one-line account of the files a sandbox refuses to
// run, for the journal ("" when none).
func (s *Sandbox) DeniedSummary() string {
	if len(s.denied) == 0 {
		return ""
	}
	var parts []string
	for _, d := range s.denied {
		parts = append(parts, d.Path)
	}
	return "refuses to run " + strings.Join(parts, ", ")
}

// startExecReports opens the pipe the helpers report refusals on and
// drains it for the sandbox's life, handing each to on (when set): a
// report nobody reads would stop the exec watcher, and every exec with it.
func (s *Sandbox) startExecReports(on func(ExecDenial)) error {
	r, w, err := os.Pipe()
	if err != nil {
		return fmt.Errorf("sandbox: exec refusal reports: %w", err)
	}
	s.reportR, s.reportW = r, w
	s.reportDone = make(chan struct{})
	go func() {
		defer close(s.reportDone)
		sc := bufio.NewScanner(r)
		for sc.Scan() {
			var d ExecDenial
			if json.Unmarshal(sc.Bytes(), &d) == nil && on != nil {
				on(d)
			}
		}
	}()
	return nil
}

// extraFiles are the descriptors a sandboxed command's helper gets from
// fd 3 on: the proxy's directory, then the refusal reports' pipe (with
// /dev/null holding fd 3 when there is no proxy).
func (s *Sandbox) extraFiles() ([]*os.File, error) {
	if s.reportW == nil {
		if s.sockDir != nil {
			return []*os.File{s.sockDir}, nil
		}
		return nil, nil
	}
	three := s.sockDir
	if three == nil {
		if s.devNull == nil {
			f, err := os.Open(os.DevNull)
			if err != nil {
				return nil, err
			}
			s.devNull = f
		}
		three = s.devNull
	}
	return []*os.File{three, s.reportW}, nil
}

// closeExecReports closes the reports' pipe, first handing on what the
// finished commands' helpers wrote (a helper still running holds the pipe
// open: then what it has not written yet is lost after a short wait).
func (s *Sandbox) closeExecReports() {
	if s.reportW != nil {
		s.reportW.Close()
		select {
		case <-s.reportDone:
		case <-time.After(2 * time.Second):
		}
	}
	for _, f := range []*os.File{s.reportR, s.devNull} {
		if f != nil {
			f.Close()
		}
	}
}
