package policy

import (
	"path"
	"path/filepath"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// The sandbox's /tmp is the coder's own (issue 32, What to build 3).
//
// What the sandbox gives (sandbox/inside/mounts_linux.go, measured with
// `sentinel sandbox run`, `sentinel exec` and sentinel mcp's exec, with both
// Linux backends, bwrap and ns): /tmp is a fresh directory of the run's
// private state bound over /tmp, TMPDIR=/tmp, the host's /tmp and its
// sockets (/tmp/.X11-unix, tmux-*, ssh-*) are not there, nor is /run (so
// no /run/user). What else shows under /tmp is what the sandbox binds at
// its host path: the workspace or home when they live there, and
// Sentinel's own per-run state (sentinel-*). On macOS Seatbelt cannot move
// /tmp: the shared one stays but is not writable at all (only the private
// TMPDIR is), so a write the policy lets through there fails closed in
// the sandbox. With --sandbox off c.tmp is empty and nothing here applies:
// /tmp is the machine's shared one.
//
// So with the sandbox on, every write, delete and create below /tmp is
// judged as one in the workspace is — a redirection, `cp -r src
// /tmp/scratch`, `rm -rf /tmp/scratch`, `tar -xzf x.tgz -C /tmp/x`, `git
// worktree add /tmp/wt`, `python -m venv /tmp/venv`, `curl -o /tmp/x` —
// and a program the coder put there runs as a workspace program does. /tmp
// itself and what the sandbox binds there (privateTemp, tmpdir.go) stay
// outside, and so do the names other programs' sockets and secrets have in
// a shared /tmp (sharedTempName): inside the sandbox they are only names,
// but the policy judges the host's spelling and must not teach the coder
// that touching them is fine.
//
// Symbolic links. The policy resolves a path on the host, where /tmp is not
// the sandbox's: a host link /tmp/x -> ~ makes /tmp/x/… a path under home,
// judged as such (stricter). Inside, /tmp starts empty: a link there is one
// the coder made, and what it reaches is only what the sandbox shows and
// Landlock lets it write (the workspace, its caches, the agent's state). So
// the link itself is what is judged: one made in /tmp that leads out of it
// asks (tempLinkOut), as a workspace link leading out does, so that a
// later `rm -rf /tmp/h/` cannot reach the workspace or home under a name
// that looks like scratch.

// sharedTempNames are the entries of a shared /tmp that belong to other
// programs — display servers, terminal multiplexers, agents holding keys,
// Kerberos tickets, systemd's private dirs — and Sentinel's own state dirs,
// which the sandbox shows at their host path. A trailing * matches any rest
// of the name.
var sharedTempNames = []string{
	".X11-unix", ".ICE-unix", ".XIM-unix", ".font-unix", ".Test-unix", ".X*-lock",
	"tmux-*", "ssh-*", "screen*", "krb5cc*", "gpg-*", "keyring-*", "pulse-*", "dbus-*",
	"systemd-private-*", "snap-private-tmp", "vscode-*", ".com.apple.*", "com.apple.*",
	"sentinel-*",
}

// sharedTempName reports whether top, the first name below /tmp, is one
// of sharedTempNames.
func sharedTempName(top string) bool {
	for _, n := range sharedTempNames {
		if ok, _ := path.Match(n, top); ok {
			return true
		}
	}
	return false
}

// tempOwn reports whether the canonical p is the coder's own scratch in
// the sandbox's private /tmp: below it, not what the sandbox binds there
// and not a name of other programs (privateTemp, tmpdir.go).
func (c *checkEnv) tempOwn(p string) bool {
	if !c.privateTemp(p) {
		return false
	}
	top, _, _ := strings.Cut(rel(p, c.tmp), "/")
	return !sharedTempName(top)
}

// tempVerdict judges an access to p, the coder's own scratch in the
// private /tmp: allowed, named for what it is (a redirection's or tee's
// capture, or another write, tmpdir.go's capturing).
func (c *checkEnv) tempVerdict(p string) finding {
	if c.capture {
		return finding{Allow, RulePathWriteWorkspace, "captures output in " + p + ", inside the sandbox's private temp dir"}
	}
	return finding{Allow, RulePathWriteWorkspace, "uses " + p + ", inside the sandbox's private temp dir"}
}

// ownPlace reports whether the canonical p is where the coder's own code
// and files live: the workspace, or, inside the sandbox, its private /tmp.
func (c *checkEnv) ownPlace(p string) bool {
	return within(p, c.ws) || c.sandbox && c.tempOwn(p)
}

// tempLinkOut judges a link made at links (canonical; several for a
// pattern) to target: in the private /tmp, a target outside it asks, as a
// workspace link leading out of the workspace does (the comment at the
// top of this file says why). It reports whether a link is in the private /tmp, where the
// caller's own check of the target (which allows the workspace) does not
// apply.
func (x *cmdCtx) tempLinkOut(links []string, target string) bool {
	in := false
	for _, l := range links {
		if !x.c.tempOwn(l) {
			continue
		}
		in = true
		if !x.c.tempOwn(target) {
			x.add(Ask, RulePathSymlinkOut, "links "+l+" to "+x.c.show(target)+": a name in the private /tmp for a place outside it")
			return true
		}
	}
	return in
}

// allScratch reports whether every operand names, plainly, the coder's own
// scratch in the sandbox's private /tmp (rm -rf /tmp/scratch): nothing of
// the person's is there to lose, in a copy or in place. A pattern counts
// when the directory it is matched in is scratch itself (/tmp/build-*
// matches the shared names and the workspace too, so it does not).
func (x *cmdCtx) allScratch(ops []word) bool {
	if len(ops) == 0 || !x.c.sandbox {
		return false
	}
	for _, w := range ops {
		if !w.static || w.brace {
			return false
		}
		v := w.val
		if w.pattern {
			if v = filepath.Dir(v); strings.ContainsAny(v, "*?[") {
				return false
			}
		}
		ps := x.resolve(word{val: v, static: true})
		if ps == nil {
			return false
		}
		for _, p := range ps {
			if !x.c.tempOwn(p) {
				return false
			}
		}
	}
	return true
}

// mktempName is the name $(mktemp …) prints inside the sandbox when it
// makes it in the private /tmp: no template (TMPDIR's tmp.XXXXXXXXXX) or a
// template without folders under -t/--tmpdir, with -d, -q or -u. Any other
// spelling (-p DIR, a template in the current directory or with folders)
// is not known here, and the substitution stays dynamic.
func (c *checkEnv) mktempName(argv []string) (string, bool) {
	if c.tmp == "" {
		return "", false
	}
	inTemp, template := false, ""
	for _, v := range argv[1:] {
		switch {
		case v == "-t" || v == "--tmpdir":
			inTemp = true
		case v == "-d" || v == "-q" || v == "-u" || v == "--directory" || v == "--quiet" || v == "--dry-run":
		case strings.HasPrefix(v, "-") && !strings.HasPrefix(v, "--") && len(v) > 2 && strings.Trim(v[1:], "dqtu") == "":
			inTemp = inTemp || strings.Contains(v, "t")
		case strings.HasPrefix(v, "-") || template != "":
			return "", false
		default:
			template = v
		}
	}
	switch {
	case template == "":
		return c.tmp + "/tmp.XXXXXXXXXX", true
	case inTemp && !strings.Contains(template, "/") && template != "." && template != "..":
		return c.tmp + "/" + template, true
	}
	return "", false
}

// tempRedirect is the target of a redirection whose word decoded as w: a
// target written through $TMPDIR or a variable bound to $(mktemp)
// (`> "$TMPDIR/t.log"`, `out=$(mktemp) && go test ./... > "$out"`) is
// the path it names when that is the coder's own scratch in the private
// /tmp; any other target stays w, as decoded.
func (c *checkEnv) tempRedirect(sw *syntax.Word, w word) word {
	if w.static || c.tmp == "" {
		return w
	}
	sub, ok := c.substWord(sw)
	if !ok || !sub.static || sub.pattern || sub.brace || sub.subst != substNone && sub.subst != substValue || !filepath.IsAbs(sub.val) {
		return w
	}
	if !c.tempOwn(c.canon(filepath.Clean(sub.val))) {
		return w
	}
	return word{val: sub.val, static: true}
}

// movesToTemp judges mv of the tree's files into the private /tmp (ops
// are mv's operands, opts its arguments): the scratch goes with the run,
// so in place, where the files are the person's, it is a deletion of them
// and asks as rm does unless a checkpoint covers the place.
func (x *cmdCtx) movesToTemp(opts, ops []word) {
	if !x.c.sandbox || !x.c.inPlace || x.c.checkpointed {
		return
	}
	dest, srcs := targetDirOpt(opts, "S"), ops
	if dest == nil {
		if len(ops) < 2 {
			return
		}
		dest, srcs = &ops[len(ops)-1], ops[:len(ops)-1]
	}
	if !dest.static || !x.anyTemp(*dest) {
		return
	}
	for _, w := range srcs {
		for _, p := range x.resolve(w) {
			if within(p, x.c.ws) {
				x.discardsWork("moves files of the tree into the private /tmp, which goes with the run", RuleDestructive, true)
				return
			}
		}
	}
}

// anyTemp reports whether w names a place in the coder's own scratch, or
// the private /tmp itself (mv src /tmp/ moves into it).
func (x *cmdCtx) anyTemp(w word) bool {
	for _, p := range x.resolve(w) {
		if x.c.tempOwn(p) || p == x.c.tmp {
			return true
		}
	}
	return false
}

// linksIntoTemp judges cp -l/-s (--link, --symbolic-link), which makes
// links instead of copies: into the private /tmp, a source outside it
// asks, as ln does there (tempLinkOut). target is -t's directory, if any.
func (x *cmdCtx) linksIntoTemp(args, ops []word, target *word) {
	if filepath.Base(args[0].val) != "cp" || !hasOpt(args[1:], "ls", "--link", "--symbolic-link") {
		return
	}
	srcs := ops
	if target == nil {
		if len(ops) < 2 {
			return
		}
		target, srcs = &ops[len(ops)-1], ops[:len(ops)-1]
	}
	if !target.static {
		return
	}
	at := x.resolve(*target)
	for _, w := range srcs {
		for _, p := range x.resolve(w) {
			if x.tempLinkOut(at, p) {
				break
			}
		}
	}
}

// intoTempDir reports whether dest, the last operand of cp or mv (opts
// their arguments), is the private /tmp itself, a directory the sources go
// into, and every source a static word, so that what is written is
// /tmp/NAME of each source, which the caller judges: the directory /tmp
// is not written as a whole (rm -rf /tmp still is). With -t the last
// operand is a source, and with -T the destination itself is replaced.
func (x *cmdCtx) intoTempDir(opts []word, dest word, srcs []word) bool {
	if !x.c.sandbox || x.c.tmp == "" || !dest.static || dest.pattern || dest.brace || len(srcs) == 0 ||
		targetDirOpt(opts, "S") != nil || hasOpt(opts, "T", "--no-target-directory") {
		return false
	}
	for _, w := range srcs {
		if !w.static || w.brace {
			return false
		}
	}
	ps := x.resolve(dest)
	return len(ps) == 1 && ps[0] == x.c.tmp
}
