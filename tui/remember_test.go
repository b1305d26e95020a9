package tui

import (
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/sentinelhq/sentinel/approvals"
	"github.com/sentinelhq/sentinel/policy"
)

func TestRememberChooserBuildsGrant(t *testing.T) {
	h := newHarness(t, testInfo(), "dark", 120, 40)
	h.m.opts.Preview = chainPreview(t) // the run's chain: built-in rules
	h.s.Past = []approvals.Request{
		{Kind: policy.KindShell, Command: "mytool run test"},
		{Kind: policy.KindShell, Command: "mytool run lint"},
		{Kind: policy.KindShell, Command: "mytool build"},
		{Kind: policy.KindShell, Command: "mytool run lint && mytool build"},
		{Kind: policy.KindShell, Command: "mytool run lint && rm -rf /"},
		{ID: "q1", Kind: policy.KindShell, Command: "mytool run test -- --watch"}, // the request on the card
	}
	p := shellPrompt("mytool run test -- --watch", "mytool", "run", "test", "--", "--watch")
	h.openCard(p)
	cmd := h.send(keyMsg("r"))
	s := h.screen()
	contains(t, s, "REMEMBER · how broad?")
	contains(t, s, "▸ exactly: mytool run test -- --watch")
	contains(t, s, "starting with: mytool run test …")
	contains(t, s, "starting with: mytool run …")
	notContains(t, s, "starting with: mytool …") // a bare program is too broad to offer
	contains(t, s, "looking for earlier requests")
	// the preview comes from Session.PastRequests, run as a command
	if cmd == nil {
		t.Fatal("r did not ask for past requests")
	}
	h.send(pastMsg(h.s.PastRequests()))
	contains(t, h.screen(), "would have covered 0 of 5 earlier requests")
	h.press("down", "down", "down", "down", "down", "down") // to mytool run …, the last, and one past it
	s = h.screen()
	contains(t, s, "▸ starting with: mytool run …")
	contains(t, s, "would have covered 2 of 5 earlier requests")
	contains(t, s, "mytool run lint")
	notContains(t, s, "mytool build") // every simple command must be covered
	notContains(t, s, "rm -rf")       // and policy's denials never are
	contains(t, s, "[project]")       // the default scope: the project, like Claude Code's "don't ask again"
	contains(t, s, "kept in .sentinel/templates.toml")
	h.press("o", "e", "e") // user scope, 8h
	contains(t, h.screen(), "[user]")
	h.press("enter")
	a, ok := answered(p)
	if !ok || a.Kind != approvals.ApproveRemember || a.Grant == nil {
		t.Fatalf("answer = %+v, %v", a, ok)
	}
	want := approvals.GrantSpec{Scope: approvals.ScopeUser, Match: approvals.Match{Prefix: []string{"mytool", "run"}}, Expires: 8 * time.Hour}
	if a.Grant.Scope != want.Scope || !slices.Equal(a.Grant.Match.Prefix, want.Match.Prefix) || a.Grant.Expires != want.Expires {
		t.Fatalf("grant = %+v, want %+v", *a.Grant, want)
	}
}

func TestRememberEscReturnsToCard(t *testing.T) {
	h := newHarness(t, testInfo(), "dark", 120, 40)
	p := shellPrompt("make", "make")
	h.openCard(p)
	h.press("r", "esc")
	if _, ok := answered(p); ok {
		t.Fatal("esc in the chooser answered the request")
	}
	contains(t, h.screen(), "[a] approve once")
}

func TestGrantLabels(t *testing.T) {
	shell := func(text string, argv ...string) policy.Verdict {
		return policy.Verdict{Decision: policy.Ask, Parts: []policy.Part{{Text: text, Argv: argv, Decision: policy.Ask}}}
	}
	tests := []struct {
		name string
		req  approvals.Request
		v    policy.Verdict
		want []string
	}{
		{"shell prefixes", approvals.Request{Kind: policy.KindShell, Command: "npm run test"}, shell("npm run test", "npm", "run", "test"),
			[]string{"exactly: npm run test", "starting with: npm run test …", "starting with: npm run …"}},
		{"quoted argument", approvals.Request{Kind: policy.KindShell, Command: "echo 'a b'"}, shell("echo 'a b'", "echo", "a b"),
			[]string{"exactly: echo 'a b'", "starting with: echo 'a b' …"}},
		{"dynamic", approvals.Request{Kind: policy.KindShell}, policy.Verdict{Parts: []policy.Part{{Argv: []string{"a"}, Dynamic: true}}}, nil},
		{"write", approvals.Request{Kind: policy.KindWrite, Path: "/ws/src/a.go", Cwd: "/ws"}, policy.Verdict{},
			[]string{"exactly the file src/a.go in the workspace", "files matching src/* in the workspace", "files matching src/** in the workspace"}},
		{"net", approvals.Request{Kind: policy.KindNet, Host: "registry.npmjs.org", Port: 443}, policy.Verdict{},
			[]string{"exactly the host registry.npmjs.org:443", "exactly the host registry.npmjs.org", "allow the npm registry for this project (registry.npmjs.org)"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got []string
			for _, o := range suggestGrants(tt.req, tt.v) {
				got = append(got, o.label)
			}
			if !slices.Equal(got, tt.want) {
				t.Fatalf("got %q, want %q", got, tt.want)
			}
		})
	}
}

func TestReveal(t *testing.T) {
	tests := []struct{ in, want string }{
		{"ls -la", "ls -la"},
		{"a\u200bb", "a<U+200B>b"},
		{"x\u202ey", "x<U+202E>y"},
		{"c\u0430t", "c<U+0430>t"},
		{"tab\there", "tab<U+0009>here"},
		{"line\nnext", "line<U+000A>next"},
		{"\x1b[31m", "<U+001B>[31m"},
		{"caf\u00e9", "caf<U+00E9>"},
	}
	for _, tt := range tests {
		toks, _ := reveal(tt.in)
		var got string
		for _, tk := range toks {
			got += tk.s
		}
		if got != tt.want {
			t.Errorf("reveal(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

// Remembering a workspace script says the grant holds only while the
// script is unchanged; an ordinary program gets no such note.
func TestRememberChooserSaysAScriptIsBoundToItsContent(t *testing.T) {
	for _, c := range []struct {
		argv []string
		note bool
	}{
		{[]string{"./scripts/gen.sh", "one"}, true},
		{[]string{"mytool", "run", "test"}, false},
	} {
		h := newHarness(t, testInfo(), "dark", 120, 40)
		h.openCard(shellPrompt(strings.Join(c.argv, " "), c.argv...))
		h.send(keyMsg("r"))
		s := h.screen()
		const note = "remembers ./scripts/gen.sh as it is now: if it changes, you are asked again"
		if c.note {
			contains(t, s, note)
		} else {
			notContains(t, s, "as it is now")
		}
	}
}
