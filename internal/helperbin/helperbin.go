// Package helperbin finds sentinel-helper, the small second program that
// answers agents' hooks (`sentinel-helper hook <agent>`) and is the
// sandbox's re-executed helper. It links none of the terminal UI, syntax
// highlighting or model clients, so the price of every tool call and every
// sandboxed command is a bare Go program's start, not the whole sentinel
// binary's package initialisation.
//
// Sentinel uses the helper only when it sits beside the running sentinel
// executable (as `go install ./cmd/...` puts it) and reports the same stamp
// (protocol and build); otherwise it falls back to the sentinel binary
// itself (`sentinel hook <agent>`, `sentinel <sandbox helper arg>`), which
// answers the same way, only slower. `sentinel doctor` says which is used.
package helperbin

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"time"

	"github.com/sentinelhq/sentinel/internal/helperbin/stamp"
)

// Name is the helper program's file name.
const Name = "sentinel-helper"

// Choice is which program answers hooks and re-executes for the sandbox.
type Choice struct {
	Path string // the program to start
	Fast bool   // Path is sentinel-helper (else the sentinel binary itself)
	Why  string // when not Fast: why the helper is not used
}

var (
	once   sync.Once
	chosen Choice
	errExe error
)

// Find returns the choice for the running sentinel binary, made once per
// process.
func Find() (Choice, error) {
	once.Do(func() {
		exe, err := os.Executable()
		if err != nil {
			errExe = fmt.Errorf("find the sentinel binary: %w", err)
			return
		}
		if r, err := filepath.EvalSymlinks(exe); err == nil {
			exe = r
		}
		chosen = choose(exe, stamp.Stamp())
	})
	return chosen, errExe
}

// Path is the program to start for hooks and the sandbox helper: the
// helper when Find chose it, else the running sentinel binary.
func Path() (string, error) {
	c, err := Find()
	return c.Path, err
}

// Install says how to put the helper where Sentinel looks for it.
const Install = "go install ./cmd/... (from a checkout) puts sentinel-helper beside sentinel"

// choose picks sentinel-helper beside exe when it is a regular executable
// file whose stamp is want, else exe. A match is remembered for that exact
// file (stampcache.go), so the helper is asked once, not on every start.
func choose(exe, want string) Choice {
	h := filepath.Join(filepath.Dir(exe), Name)
	st, err := os.Stat(h)
	switch {
	case err != nil:
		return Choice{Path: exe, Why: "no " + Name + " beside " + exe}
	case !st.Mode().IsRegular() || st.Mode().Perm()&0o111 == 0:
		return Choice{Path: exe, Why: h + " is not an executable file"}
	}
	key := stampKey(h, st, want)
	if stampMatched(key) {
		return Choice{Path: h, Fast: true}
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, h, stamp.Arg)
	cmd.Env = []string{} // the stamp depends on nothing in the environment
	out, err := cmd.Output()
	if err != nil {
		return Choice{Path: exe, Why: h + " does not answer (" + err.Error() + ")"}
	}
	if got := string(bytes.TrimSpace(out)); got != want {
		return Choice{Path: exe, Why: h + " is from another build (" + got + ", want " + want + ")"}
	}
	rememberMatch(key)
	return Choice{Path: h, Fast: true}
}
