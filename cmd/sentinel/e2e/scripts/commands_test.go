package scripts

import (
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/sentinelhq/sentinel/cmd/sentinel/internal/e2etest"
	"github.com/sentinelhq/sentinel/internal/poll"
)

// The scripts' own commands:
//
//	gitrepo DIR                    make DIR (with the files the script gave it) a git repository with one commit
//	tmux-start [-size CxR] PROG…   start PROG in a detached tmux window (200×60), in the script's directory and environment
//	keys KEY…                      tmux key names (a, Enter, Escape, C-c) to the window
//	type TEXT                      TEXT typed into the window as it is (a message, a search)
//	waitscreen [-armed] [-within D] REGEX
//	                               wait until the screen matches (with !: until it does not); -armed also waits out
//	                               a new card's or review's key guard; fails after D (default scriptBound)
//	screen REGEX                   the screen matches now (with !: does not)
//	pressuntil [-within D] KEY REGEX
//	                               press KEY until the screen matches (with !: until it does not); fails after D
//	waitformat [-within D] FORMAT REGEX
//	                               wait until tmux's FORMAT for the window (#{pane_title}, #{window_bell_flag})
//	                               matches (with !: until it does not)
//	signal SIG                     send SIG (TERM, HUP, INT) to the program in the window, alone in its pane
//	service-start                  start the user service in a runtime directory of the script's own, once it answers
//
// Every wait is a bound on a hang, never a speed check; nothing sleeps a
// fixed time to let something happen.
func commands() map[string]func(*testscript.TestScript, bool, []string) {
	return map[string]func(*testscript.TestScript, bool, []string){
		"gitrepo":       cmdGitRepo,
		"tmux-start":    cmdTmuxStart,
		"keys":          cmdKeys,
		"type":          cmdType,
		"waitscreen":    cmdWaitScreen,
		"screen":        cmdScreen,
		"pressuntil":    cmdPressUntil,
		"waitformat":    cmdWaitFormat,
		"signal":        cmdSignal,
		"service-start": cmdServiceStart,
	}
}

// passed are the script's variables the program under tmux gets (the tmux
// server's own environment is the test process's): every one the scripts'
// setup sets (TestTmuxGetsEveryVariableTheSetupSets). Without GOCACHE the
// demo under tmux had no Go build cache of the person's to seed its
// verification from, and compiled the standard library from nothing: about
// 100 CPU-s, most of the package's.
var passed = []string{"PATH", "HOME", "TMPDIR", "XDG_CONFIG_HOME", "XDG_STATE_HOME", "XDG_RUNTIME_DIR", "NO_COLOR",
	"GIT_AUTHOR_NAME", "GIT_AUTHOR_EMAIL", "GIT_COMMITTER_NAME", "GIT_COMMITTER_EMAIL", "GOCACHE"}

// scriptBound is how long a wait may take before the script fails:
// e2etest.HangBound, or $SENTINEL_E2E_HANG_BOUND (a Go duration) when set,
// to see a planted break fail sooner.
func scriptBound(ts *testscript.TestScript) time.Duration {
	if v := ts.Getenv("SENTINEL_E2E_HANG_BOUND"); v != "" {
		d, err := time.ParseDuration(v)
		if err != nil || d <= 0 {
			ts.Fatalf("SENTINEL_E2E_HANG_BOUND=%q: want a Go duration, as 30s", v)
		}
		return d
	}
	return e2etest.HangBound
}

// withinFlag is a wait's -within D: D, but no more than
// $SENTINEL_E2E_HANG_BOUND when that is set (a planted break fails as soon
// in a long wait as in a short one).
func withinFlag(ts *testscript.TestScript, fs *flag.FlagSet) func() time.Duration {
	d := fs.Duration("within", scriptBound(ts), "the hang bound")
	return func() time.Duration {
		if ts.Getenv("SENTINEL_E2E_HANG_BOUND") != "" {
			return min(*d, scriptBound(ts))
		}
		return *d
	}
}

type tmuxKey struct{}

// tmuxHolder is the script's tmux window, once tmux-start made it.
type tmuxHolder struct{ tm *window }

// window is a program in a detached tmux window.
type window struct {
	sock, out string // the server's socket; a file the pane's output is appended to
}

func (w *window) cmd(args ...string) string {
	out, _ := exec.Command("tmux", append([]string{"-S", w.sock}, args...)...).CombinedOutput()
	return string(out)
}

func (w *window) screen() string { return w.cmd("capture-pane", "-p", "-t", "e2e") }

func (w *window) outSize() int64 {
	fi, err := os.Stat(w.out)
	if err != nil {
		return -1
	}
	return fi.Size()
}

// settle returns once the pane has written past seen, or after a second:
// every screen the window shows comes through its output, so an unchanged
// size is an unchanged screen and needs no new capture.
func (w *window) settle(seen int64) {
	poll.Paced(50*time.Millisecond, time.Second, func() bool { s := w.outSize(); return s != seen || s < 0 })
}

func windowOf(ts *testscript.TestScript) *window {
	h := ts.Value(tmuxKey{}).(*tmuxHolder)
	if h.tm == nil {
		ts.Fatalf("no tmux window: tmux-start comes first")
	}
	return h.tm
}

func cmdGitRepo(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 1 {
		ts.Fatalf("usage: gitrepo DIR")
	}
	dir := ts.MkAbs(args[0])
	if err := os.MkdirAll(dir, 0o755); err != nil {
		ts.Fatalf("gitrepo: %v", err)
	}
	for _, a := range [][]string{{"init", "-q", "-b", "main"}, {"add", "-A"}, {"commit", "-q", "--allow-empty", "-m", "init"}} {
		c := exec.Command("git", a...)
		c.Dir = dir
		for _, k := range passed {
			c.Env = append(c.Env, k+"="+ts.Getenv(k))
		}
		if out, err := c.CombinedOutput(); err != nil {
			ts.Fatalf("git %v: %v\n%s", a, err, out)
		}
	}
}

func cmdTmuxStart(ts *testscript.TestScript, neg bool, args []string) {
	fs := flag.NewFlagSet("tmux-start", flag.ContinueOnError)
	size := fs.String("size", "200x60", "the window's columns x rows")
	if err := fs.Parse(args); err != nil || neg || fs.NArg() == 0 {
		ts.Fatalf("usage: tmux-start [-size CxR] PROG [ARG…]")
	}
	cols, rows, ok := strings.Cut(*size, "x")
	if _, err := strconv.Atoi(cols); !ok || err != nil {
		ts.Fatalf("tmux-start: -size %q: want COLSxROWS, as 80x24", *size)
	}
	h := ts.Value(tmuxKey{}).(*tmuxHolder)
	if h.tm != nil {
		ts.Fatalf("tmux-start: a window is already running (one a script)")
	}
	if _, err := exec.LookPath("tmux"); err != nil {
		ts.Fatalf("tmux-start: tmux is not installed (apt-get install tmux)")
	}
	// a short socket path: unix socket paths are limited to ~100 bytes
	sockDir, err := os.MkdirTemp("", "tms")
	if err != nil {
		ts.Fatalf("tmux-start: %v", err)
	}
	w := &window{sock: filepath.Join(sockDir, "s"), out: filepath.Join(sockDir, "out")}
	var line strings.Builder
	line.WriteString("cd " + e2etest.Shq(ts.MkAbs(".")) + " && env")
	for _, k := range passed {
		line.WriteString(" " + e2etest.Shq(k+"="+ts.Getenv(k)))
	}
	for _, a := range fs.Args() {
		line.WriteString(" " + e2etest.Shq(a))
	}
	// the exit status stays on screen: waitscreen 'SENTINEL-EXITED 0'
	line.WriteString("; echo SENTINEL-EXITED $?; sleep 600")
	if out, err := exec.Command("tmux", "-S", w.sock, "new-session", "-d", "-x", cols, "-y", rows, "-s", "e2e", line.String()).CombinedOutput(); err != nil {
		ts.Fatalf("tmux-start: %v\n%s", err, out)
	}
	w.cmd("pipe-pane", "-t", "e2e", "cat >> "+e2etest.Shq(w.out))
	h.tm = w
	ts.Defer(func() {
		// Ending tmux hangs up on the program, which may still be writing
		// its run's records: wait for it before $WORK goes.
		kids := e2etest.ChildPIDs(strings.TrimSpace(w.cmd("display", "-p", "-t", "e2e", "#{pane_pid}")))
		w.cmd("kill-server")
		e2etest.WaitGone(kids, time.Minute)
		os.RemoveAll(sockDir)
	})
}

func cmdKeys(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) == 0 {
		ts.Fatalf("usage: keys KEY…")
	}
	windowOf(ts).cmd(append([]string{"send-keys", "-t", "e2e"}, args...)...)
}

func cmdType(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 1 {
		ts.Fatalf("usage: type TEXT (one argument: quote it)")
	}
	windowOf(ts).cmd("send-keys", "-t", "e2e", "-l", args[0])
}

// screenRegexp compiles a script's screen pattern, multi-line.
func screenRegexp(ts *testscript.TestScript, cmd, pat string) *regexp.Regexp {
	re, err := regexp.Compile("(?m)" + pat)
	if err != nil {
		ts.Fatalf("%s: %v", cmd, err)
	}
	return re
}

// waitFor polls the screen until ok holds or the bound passes.
func waitFor(ts *testscript.TestScript, w *window, what string, bound time.Duration, press string, ok func(string) bool) {
	deadline := time.Now().Add(bound)
	for {
		seen := w.outSize()
		if press != "" {
			w.cmd("send-keys", "-t", "e2e", press)
		}
		s := w.screen()
		if ok(s) {
			return
		}
		if time.Now().After(deadline) {
			ts.Fatalf("never saw %s within %v; screen:\n%s", what, bound, s)
		}
		// a key gets a few quiet seconds to show before it is pressed
		// again (a new card may still be inside its key guard)
		for range 3 {
			w.settle(seen)
			if s = w.screen(); ok(s) {
				return
			}
			if press == "" {
				break
			}
			seen = w.outSize()
		}
	}
}

func cmdWaitScreen(ts *testscript.TestScript, neg bool, args []string) {
	fs := flag.NewFlagSet("waitscreen", flag.ContinueOnError)
	armed := fs.Bool("armed", false, "also wait until the screen takes keys")
	within := withinFlag(ts, fs)
	if err := fs.Parse(args); err != nil || fs.NArg() != 1 {
		ts.Fatalf("usage: waitscreen [-armed] [-within D] REGEX")
	}
	re := screenRegexp(ts, "waitscreen", fs.Arg(0))
	what := "/" + re.String()[4:] + "/"
	if neg {
		what = "the screen without " + what
	}
	waitFor(ts, windowOf(ts), what, within(), "", func(s string) bool {
		return re.MatchString(s) != neg && (!*armed || !strings.Contains(s, e2etest.GuardNotice))
	})
}

func cmdScreen(ts *testscript.TestScript, neg bool, args []string) {
	if len(args) != 1 {
		ts.Fatalf("usage: screen REGEX")
	}
	re := screenRegexp(ts, "screen", args[0])
	if s := windowOf(ts).screen(); re.MatchString(s) == neg {
		verb := "does not match"
		if neg {
			verb = "matches"
		}
		ts.Fatalf("the screen %s /%s/:\n%s", verb, args[0], s)
	}
}

func cmdPressUntil(ts *testscript.TestScript, neg bool, args []string) {
	fs := flag.NewFlagSet("pressuntil", flag.ContinueOnError)
	within := withinFlag(ts, fs)
	if err := fs.Parse(args); err != nil || fs.NArg() != 2 {
		ts.Fatalf("usage: pressuntil [-within D] KEY REGEX")
	}
	args = fs.Args()
	re := screenRegexp(ts, "pressuntil", args[1])
	what := fmt.Sprintf("/%s/ after pressing %s", args[1], args[0])
	if neg {
		what = fmt.Sprintf("the screen without /%s/ after pressing %s", args[1], args[0])
	}
	waitFor(ts, windowOf(ts), what, within(), args[0], func(s string) bool { return re.MatchString(s) != neg })
}
