package policy

// The redirections of a command (> f, >> f, < f, 2>&1, here-documents):
// decoded once per command by the walk (shell.go) and judged as the
// writes and reads they are.

import "mvdan.cc/sh/v3/syntax"

// redirTarget is one decoded redirection.
type redirTarget struct {
	w     word
	write bool
	fd    bool // duplicates a descriptor: no path
	// stdinNull: `< /dev/null` (or `0< /dev/null`).
	stdinNull bool
	trunc     bool // opens its file truncated (>, >|, &>): emptyfile.go
}

func (c *checkEnv) redirects(s *src, rs []*syntax.Redirect, cw *cwds) []redirTarget {
	if len(rs) == 0 {
		return nil
	}
	out := make([]redirTarget, 0, len(rs))
	for _, r := range rs {
		c.scan(s, r.Word, cw)
		if r.Hdoc != nil {
			c.scan(s, r.Hdoc, cw)
		}
		switch r.Op {
		case syntax.Hdoc, syntax.DashHdoc, syntax.WordHdoc:
			continue
		}
		w := c.tempRedirect(r.Word, decodeWord(r.Word, c.home)) // privatetemp.go: > "$TMPDIR/x", > "$out"
		t := redirTarget{w: w, trunc: truncatingRedirect(r.Op)}
		switch r.Op {
		case syntax.RdrIn:
			t.stdinNull = (r.N == nil || r.N.Value == "0") && w.static && w.val == "/dev/null"
		case syntax.DplIn, syntax.DplOut:
			if w.static && (w.val == "-" || isDigits(w.val)) {
				t.fd = true
			} else {
				t.write = r.Op == syntax.DplOut
			}
		default:
			t.write = true
		}
		out = append(out, t)
	}
	return out
}

func isDigits(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// judgeRedirects records and judges redirection targets on a part. bare
// says there is no command (`> f`), which writes nothing.
func (c *checkEnv) judgeRedirects(p *Part, rs []redirTarget, cw *cwds, bare bool) {
	x := &cmdCtx{c: c, cw: cw, part: p}
	x.f = finding{Allow, RuleShellBuiltin, "redirects output"}
	for _, r := range rs {
		if r.fd {
			continue
		}
		for _, abs := range x.resolve(r.w) {
			p.Redirects = append(p.Redirects, abs)
		}
		x.capturing(func() { // tmpdir.go
			if r.write {
				x.write(r.w)
			} else {
				x.read(r.w)
			}
		})
	}
	if bare {
		x.emptiesTreeFiles(nil, rs) // emptyfile.go: > src/main.rs
	}
	if p.Rule == "" || x.f.d >= p.Decision {
		p.Decision, p.Rule, p.Reason = x.f.d, x.f.rule, x.f.reason
	}
}
