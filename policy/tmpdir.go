package policy

import "strings"

// The sandbox's private temp dir. Inside Sentinel's sandbox /tmp is a
// private mount (and TMPDIR points at it): what the coder keeps there is
// its own scratch space, seen by no one else and gone with the run. So
// capturing a command's output there — `go test ./... > /tmp/go-test.log`,
// `git diff > /tmp/changes.patch`, `… | tee /tmp/t.log` — and reading it
// back are workspace work. With --sandbox off /tmp is the machine's shared
// one and those writes stay outside the workspace.
//
// Every write below it is the coder's (privatetemp.go says what the
// sandbox gives and what stays outside). Output captured by a redirection
// or tee, a build's product (buildOutput: the product is remembered, so
// running it later in the line is known to run what the line built), an
// archive tar creates of what it reads, mkdir's scratch and a git
// command's own output file (gitoutput.go) are marked as captured
// (capturing), which names them so in the reason.

// sandboxTemp is the temp dir the sandbox gives the coder.
const sandboxTemp = "/tmp"

// privateTemp reports whether the canonical path p is inside the sandbox's
// private temp dir: below it, and not in the top directory under /tmp that
// holds the person's home, the workspace or an extra writable root, nor an
// ancestor of them (a home or a project that lives under /tmp is shown
// through the private one and stays what it is; so do its neighbours,
// which `../` reaches).
func (c *checkEnv) privateTemp(p string) bool {
	if c.tmp == "" || p == c.tmp || !within(p, c.tmp) {
		return false
	}
	for _, r := range append([]string{c.home, c.ws}, c.writable...) {
		if r == "" || r == "/" {
			continue
		}
		if within(p, r) || within(r, p) {
			return false
		}
		if within(r, c.tmp) {
			// The whole top directory under /tmp that holds it.
			top, _, _ := strings.Cut(rel(r, c.tmp), "/")
			if within(p, c.tmp+"/"+top) {
				return false
			}
		}
	}
	return true
}

// capturing runs judge with the paths it judges marked as a redirection's
// or tee's target: output a command's caller captures.
func (x *cmdCtx) capturing(judge func()) {
	was := x.c.capture
	x.c.capture = true
	defer func() { x.c.capture = was }()
	judge()
}

// teeCmd is tee: it writes its stdin to each file, which is capturing
// output like a redirection.
func teeCmd(x *cmdCtx, args []word) {
	x.capturing(func() { writeAll(x, args) })
	x.teeEmpties(args) // emptyfile.go: tee src/main.rs < /dev/null
}

// buildOutput judges w as the path a build writes its product to: inside
// the workspace as any write, and in the sandbox's private temp dir as the
// coder's own scratch (`go build -o /tmp/app`, `gcc -o /tmp/a.out`).
// The product is remembered: running it later in the line runs the
// project's own code (ranWritten).
func (x *cmdCtx) buildOutput(w word) {
	x.capturing(func() { x.write(w) })
	if !w.static || w.pattern || w.brace {
		return
	}
	for _, p := range x.resolve(w) {
		if x.c.built == nil {
			x.c.built = map[string]int{}
		}
		x.c.built[p] = x.c.step
	}
}

// scratchDirs is mkdir: the directories it makes are the coder's scratch
// space when they are in the sandbox's private temp dir.
func scratchDirs(x *cmdCtx, args []word) {
	x.capturing(func() { writeAll(x, args) })
}
