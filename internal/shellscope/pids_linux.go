package shellscope

import (
	"bufio"
	"bytes"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"golang.org/x/sys/unix"
)

// Pid exhaustion against the hooks. The agent, its hooks and its commands
// share the sandbox's pids limit (sandbox: a pids cgroup named
// sentinel-sbx-*). A command that fills it makes the agent's next start of
// its hook's shell fail, and Codex then runs that call without the hook
// (Gemini CLI too); the coder can read the cgroup's pids.events to free
// the pids at once, so the call's own shell does start. So a shell the
// agent starts (the one that enters a scope) first reads the sandbox's
// pids.events: once the limit has refused any start in this sandbox, no
// further command of the agent runs (exit 126, and it says why) — the
// hook that may not have started cannot be told apart afterwards. The
// agent's hook itself (its shell's command is exactly the wrapper's own
// program with "hook AGENT") still runs, so a call the hook sees is
// decided as before; Claude Code and Codex hooks fail closed on a hook
// that answers. A command's own shells (make's sh -c) are not checked:
// a build that hits the limit keeps its own processes going.

// pidsEventsFor is the pids.events file of the sandbox's pids cgroup that
// a process with /proc/self/cgroup content b is in ("" when it is in none:
// no cgroup, or one not named sentinel-sbx-*).
func pidsEventsFor(b []byte) string {
	sc := bufio.NewScanner(bytes.NewReader(b))
	for sc.Scan() {
		parts := strings.SplitN(sc.Text(), ":", 3)
		if len(parts) != 3 || !strings.HasPrefix(filepath.Base(parts[2]), "sentinel-sbx-") {
			continue
		}
		var roots []string
		switch {
		case parts[1] == "":
			roots = []string{"/sys/fs/cgroup", "/sys/fs/cgroup/unified"}
		case strings.Contains(","+parts[1]+",", ",pids,"):
			roots = []string{"/sys/fs/cgroup/pids"}
		}
		for _, r := range roots {
			f := filepath.Join(r, parts[2], "pids.events")
			if _, err := os.Stat(f); err == nil {
				return f
			}
		}
	}
	return ""
}

// refusedStarts is the "max" count of a pids.events file's content: how
// many starts the limit refused.
func refusedStarts(b []byte) int {
	for _, l := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(l, "max "); ok {
			n, _ := strconv.Atoi(strings.TrimSpace(v))
			return n
		}
	}
	return 0
}

// pidsEventsFile is the sandbox's pids.events file ("": none); a variable
// so that a test can give the wrapper one of its own.
var pidsEventsFile = func() string {
	b, err := os.ReadFile("/proc/self/cgroup")
	if err != nil {
		return ""
	}
	return pidsEventsFor(b)
}

// pidsExhausted reports how many starts the sandbox's pids limit has
// refused (0: none, or no pids cgroup to read).
func pidsExhausted() int {
	f := pidsEventsFile()
	if f == "" {
		return 0
	}
	ev, err := os.ReadFile(f)
	if err != nil {
		return 0
	}
	return refusedStarts(ev)
}

// isHook reports whether argv is the agent's hook shell: `SHELL -c CMD`
// (or -lc) where CMD is exactly `PROGRAM hook NAME`, PROGRAM (bare or in
// single quotes, as agentutil.ShellQuote writes it) is the very file this
// wrapper runs from (the helper, which answers hooks) and NAME a word.
// Anything else — more words, any shell syntax, another program — is not.
func isHook(argv []string, sameAsSelf func(string) bool) bool {
	if len(argv) != 3 || (argv[1] != "-c" && argv[1] != "-lc") {
		return false
	}
	prog, rest, ok := strings.Cut(argv[2], " hook ")
	if !ok || rest == "" || strings.IndexFunc(rest, func(r rune) bool { return !(r >= 'a' && r <= 'z') }) >= 0 {
		return false
	}
	quoted := false
	if q, ok := strings.CutPrefix(prog, "'"); ok {
		if prog, ok = strings.CutSuffix(q, "'"); !ok {
			return false
		}
		quoted = true
	}
	if !filepath.IsAbs(prog) || strings.IndexFunc(prog, func(r rune) bool {
		return !(r == '/' || r == '.' || r == '-' || r == '_' || r == ' ' && quoted || r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z')
	}) >= 0 {
		return false
	}
	return sameAsSelf(prog)
}

// sameFileAsSelf reports whether path is the file this process runs from.
func sameFileAsSelf(path string) bool {
	self, err := os.Stat("/proc/self/exe")
	if err != nil {
		return false
	}
	st, err := os.Stat(path)
	return err == nil && os.SameFile(self, st)
}

// leaveRoomForHooks lowers a command shell's RLIMIT_NPROC (soft and hard,
// so the command cannot raise it again) by hooksRoom(limit) below the
// sandbox's: the limit counts every process of the sandbox's user, so
// the agent, whose limit is the sandbox's, keeps that many starts for its
// hooks whatever its commands hold. It is what bounds a sandbox where
// Sentinel may make no pids cgroup (not root, no delegated cgroup), so no
// pids.events to read. The host's root is not bound by it (the cgroup is).
func leaveRoomForHooks() {
	var lim unix.Rlimit
	if unix.Getrlimit(unix.RLIMIT_NPROC, &lim) != nil || lim.Cur == unix.RLIM_INFINITY {
		return
	}
	room := hooksRoom(lim.Cur)
	if room == 0 {
		return
	}
	lim.Cur -= room
	lim.Max = lim.Cur
	_ = unix.Setrlimit(unix.RLIMIT_NPROC, &lim)
}

// hooksRoom is how many of limit's starts a command leaves the agent: a
// sixteenth, at least 32 (0 for a limit too small to share).
func hooksRoom(limit uint64) uint64 {
	if limit < 128 {
		return 0
	}
	return max(limit/16, 32)
}
