package tui

import (
	"reflect"
	"sync"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/sentinelhq/sentinel/approvals"
	"github.com/sentinelhq/sentinel/policy"
	"github.com/sentinelhq/sentinel/runner"
)

// fakeBroker records what the root applies and passes nothing on: a
// prompt or review answered on its own channel did not go through it.
type fakeBroker struct {
	mu       sync.Mutex
	answers  []brokerAnswer
	verdicts []brokerVerdict
}

type brokerAnswer struct {
	p *approvals.Prompt
	a approvals.Answer
}

type brokerVerdict struct {
	req *runner.ReviewRequest
	a   runner.ReviewAnswer
}

func (f *fakeBroker) Answer(p *approvals.Prompt, a approvals.Answer) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.answers = append(f.answers, brokerAnswer{p, a})
}

func (f *fakeBroker) Verdict(req *runner.ReviewRequest, a runner.ReviewAnswer) tea.Cmd {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.verdicts = append(f.verdicts, brokerVerdict{req, a})
	return nil
}

// withFakeBroker puts a recording broker under the harness's root.
func (h *harness) withFakeBroker() *fakeBroker {
	f := &fakeBroker{}
	h.r.broker = f
	return f
}

// pageKeys sends keys straight to the lanes page, past the root: what the
// card decides stays in the page's outbox.
func (h *harness) pageKeys(keys ...string) {
	h.t.Helper()
	for _, k := range keys {
		h.m.key(keyMsg(k))
	}
}

func TestCardKeysLeaveTypedDecisionsAndAnswerNothing(t *testing.T) {
	remember := func(p *approvals.Prompt) tea.Msg {
		c := newChooser(p)
		return RememberMsg{Prompt: p, Grant: c.spec()}
	}
	for _, tc := range []struct {
		name string
		keys []string
		want func(p *approvals.Prompt) tea.Msg
	}{
		{"approve", []string{"a"}, func(p *approvals.Prompt) tea.Msg { return ApproveMsg{Prompt: p} }},
		{"deny at once", []string{"d", "enter"}, func(p *approvals.Prompt) tea.Msg { return DenyMsg{Prompt: p} }},
		{"deny with a message", []string{"d", "u", "s", "e", " ", "m", "a", "k", "e", "enter"},
			func(p *approvals.Prompt) tea.Msg { return DenyMsg{Prompt: p, Message: "use make"} }},
		{"remember", []string{"r", "enter"}, remember},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h := newHarness(t, testInfo(), "dark", 100, 30)
			p := shellPrompt("npm run test", "npm", "run", "test")
			h.openCard(p)
			h.pageKeys(tc.keys...)
			if a, ok := answered(p); ok {
				t.Fatalf("the card answered the prompt itself: %+v", a)
			}
			got := h.m.take()
			want := []tea.Msg{tc.want(p)}
			if !reflect.DeepEqual(got, want) {
				t.Fatalf("the card's decisions = %#v, want %#v", got, want)
			}
			if len(h.m.queue) != 0 {
				t.Fatal("the decided prompt stayed on the card")
			}
		})
	}
}

func TestDenyKindLeavesOneDenyPerPrompt(t *testing.T) {
	h := newHarness(t, testInfo(), "dark", 100, 30)
	p1 := shellPrompt("npm run a", "npm", "run", "a")
	p2 := approvals.NewPrompt(approvals.Request{ID: "w", Kind: policy.KindWrite, Path: "x"}, policy.Verdict{Decision: policy.Ask})
	p3 := shellPrompt("npm run b", "npm", "run", "b")
	h.openCard(p1)
	h.send(promptMsg{p2})
	h.send(promptMsg{p3})
	h.pageKeys("X", "y") // X asks first, naming the count
	got := h.m.take()
	if len(got) != 2 {
		t.Fatalf("deny-all left %d decisions, want 2: %#v", len(got), got)
	}
	for i, p := range []*approvals.Prompt{p1, p3} {
		d, ok := got[i].(DenyMsg)
		if !ok || d.Prompt != p || d.Message == "" {
			t.Fatalf("decision %d = %#v, want a DenyMsg with a message for %s", i, got[i], p.Request.Command)
		}
		if _, ok := answered(p); ok {
			t.Fatal("deny-all answered a prompt itself")
		}
	}
	if len(h.m.queue) != 1 || h.m.queue[0] != p2 {
		t.Fatal("deny-all must leave the other kind's request pending")
	}
}

func TestRootAppliesCardDecisionsToTheBroker(t *testing.T) {
	h := newHarness(t, testInfo(), "dark", 100, 30)
	f := h.withFakeBroker()
	p1 := shellPrompt("npm run a", "npm", "run", "a")
	p2 := shellPrompt("npm run b", "npm", "run", "b")
	p3 := shellPrompt("npm run c", "npm", "run", "c")
	h.openCard(p1)
	h.send(promptMsg{p2})
	h.send(promptMsg{p3})
	h.press("a")
	h.clk.Add(DefaultGuard)
	h.press("d")
	h.typeText("no")
	h.press("enter")
	h.clk.Add(DefaultGuard)
	h.press("r", "enter")
	want := []brokerAnswer{
		{p1, approvals.Answer{Kind: approvals.ApproveOnce}},
		{p2, approvals.Answer{Kind: approvals.Deny, Message: "no"}},
		{p3, approvals.Answer{Kind: approvals.ApproveRemember, Grant: newChooser(p3).spec()}},
	}
	if !reflect.DeepEqual(f.answers, want) {
		t.Fatalf("the broker got %+v, want %+v", f.answers, want)
	}
	for _, p := range []*approvals.Prompt{p1, p2, p3} {
		if _, ok := answered(p); ok {
			t.Fatal("a prompt was answered past the broker")
		}
	}
	if len(h.m.take()) != 0 {
		t.Fatal("the root left decisions in the page's outbox")
	}
}

func TestRootAppliesReviewVerdictsToTheBroker(t *testing.T) {
	hs := newThemedHarness(t, "nocolor", 120, 40)
	f := hs.withFakeBroker()
	req, ans := fixtureRequest(t)
	hs.send(reviewMsg{req})
	hs.clk.Add(DefaultGuard)
	hs.pressReview("d")
	hs.typeText("too broad")
	hs.pressReview("enter")
	if len(f.verdicts) != 1 || f.verdicts[0].req != req || f.verdicts[0].a.Approve || f.verdicts[0].a.Reason != "too broad" {
		t.Fatalf("the broker got %+v, want one rejection with the reason", f.verdicts)
	}
	if a, ok := verdict(ans); ok {
		t.Fatalf("the review screen answered past the broker: %+v", a)
	}
}

func TestStopDeniesAndRejectsThroughTheBroker(t *testing.T) {
	h := newHarness(t, testInfo(), "dark", 120, 40)
	f := h.withFakeBroker()
	req, _ := fixtureRequest(t)
	h.send(reviewMsg{req})
	p := shellPrompt("npm run a", "npm", "run", "a")
	h.openCard(p)
	h.press("q", "y")
	if len(f.answers) != 1 || f.answers[0].p != p || f.answers[0].a.Kind != approvals.Deny {
		t.Fatalf("stopping gave the broker %+v, want one deny", f.answers)
	}
	if len(f.verdicts) != 1 || f.verdicts[0].req != req || f.verdicts[0].a.Approve {
		t.Fatalf("stopping gave the broker %+v, want one rejection", f.verdicts)
	}
}

func TestStandaloneReviewVerdictGoesThroughTheBroker(t *testing.T) {
	req, ans := fixtureRequest(t)
	clk := &clock{now: t0}
	r, a := newStandaloneReview(req, Options{Theme: "dark", NoColor: true, Now: clk.Now})
	f := &fakeBroker{}
	r.broker = f
	r.Update(teaSize(80, 24))
	clk.Add(DefaultGuard)
	a.key(keyMsg("a"))
	a.key(keyMsg("y"))
	if _, ok := verdict(ans); ok || len(f.verdicts) != 0 {
		t.Fatal("the review page answered by itself")
	}
	if got := a.take(); len(got) != 1 {
		t.Fatalf("the review page left %d decisions, want 1", len(got))
	}
	r2, a2 := newStandaloneReview(req, Options{Theme: "dark", NoColor: true, Now: clk.Now})
	r2.broker = f
	clk.Add(DefaultGuard)
	r2.Update(keyMsg("a"))
	r2.Update(keyMsg("y"))
	if len(f.verdicts) != 1 || !f.verdicts[0].a.Approve || !a2.answered {
		t.Fatalf("the root gave the broker %+v, want one approval", f.verdicts)
	}
}

// TestOneRootOwnsTheChrome: the lanes and the review pages share the
// root's theme, help and notice, not copies of them.
func TestOneRootOwnsTheChrome(t *testing.T) {
	h := newHarness(t, testInfo(), "dark", 80, 24)
	if h.m.chrome != h.r.chrome {
		t.Fatal("the lanes page has its own chrome")
	}
	h.send(errMsg{errTest("boom")})
	contains(t, h.screen(), "boom")
	req, _ := fixtureRequest(t)
	r, a := newStandaloneReview(req, Options{})
	if a.chrome != r.chrome {
		t.Fatal("the review page has its own chrome")
	}
}

type errTest string

func (e errTest) Error() string { return string(e) }

func TestReviewScreenLeavesATypedVerdictAndSendsNothing(t *testing.T) {
	hs := newThemedHarness(t, "nocolor", 120, 40)
	req, ans := fixtureRequest(t)
	hs.send(reviewMsg{req})
	hs.clk.Add(DefaultGuard)
	hs.pageKeys("a", "y")
	if a, ok := verdict(ans); ok {
		t.Fatalf("the review screen answered by itself: %+v", a)
	}
	got := hs.m.take()
	if len(got) != 1 {
		t.Fatalf("the review screen left %d decisions, want 1", len(got))
	}
	v, ok := got[0].(ReviewVerdictMsg)
	if !ok || v.Request != req || !v.Answer.Approve || v.Answer.Patch != nil {
		t.Fatalf("the review screen left %#v, want an approval of everything", got[0])
	}
}

// TestClaudeCodeKeysOnACard: 1, 2 and 3 do what Claude Code's do, as typed
// decisions the root applies: 1 approves once, 2 approves and remembers the
// narrowest breadth for the project, 3 opens the message for the coder and
// denies with it.
func TestClaudeCodeKeysOnACard(t *testing.T) {
	h := newHarness(t, testInfo(), "dark", 100, 30)
	f := h.withFakeBroker()
	p1 := shellPrompt("npm run a", "npm", "run", "a")
	p2 := shellPrompt("npm run b", "npm", "run", "b")
	p3 := shellPrompt("npm run c", "npm", "run", "c")
	h.openCard(p1)
	h.send(promptMsg{p2})
	h.send(promptMsg{p3})
	h.press("1")
	h.clk.Add(DefaultGuard)
	h.press("2")
	contains(t, h.screen(), "kept in .sentinel/templates.toml")
	h.clk.Add(DefaultGuard)
	h.press("3")
	h.typeText("use make")
	h.press("enter")
	grant := &approvals.GrantSpec{Scope: approvals.ScopeProject, Match: approvals.Match{Exact: []string{"npm", "run", "b"}}}
	want := []brokerAnswer{
		{p1, approvals.Answer{Kind: approvals.ApproveOnce}},
		{p2, approvals.Answer{Kind: approvals.ApproveRemember, Grant: grant}},
		{p3, approvals.Answer{Kind: approvals.Deny, Message: "use make"}},
	}
	if !reflect.DeepEqual(f.answers, want) {
		t.Fatalf("the broker got %+v, want %+v", f.answers, want)
	}
}

// TestRememberDefaultsToTheProject: r then enter, the default keys,
// remember for the project (a run-only grant would ask again next run).
func TestRememberDefaultsToTheProject(t *testing.T) {
	h := newHarness(t, testInfo(), "dark", 100, 30)
	f := h.withFakeBroker()
	p := shellPrompt("npm run a", "npm", "run", "a")
	h.openCard(p)
	h.press("r")
	contains(t, h.screen(), "kept in .sentinel/templates.toml")
	h.press("enter")
	if len(f.answers) != 1 || f.answers[0].a.Grant == nil || f.answers[0].a.Grant.Scope != approvals.ScopeProject {
		t.Fatalf("the broker got %+v, want one grant for the project", f.answers)
	}
}

// TestCardSaysWhenAKeyDoesNothing: Enter, y and other keys neither card nor
// lanes use answer nothing and say so on the footer; the lanes' own keys
// still work under a card.
func TestCardSaysWhenAKeyDoesNothing(t *testing.T) {
	h := newHarness(t, testInfo(), "dark", 100, 30)
	f := h.withFakeBroker()
	p := shellPrompt("npm run a", "npm", "run", "a")
	h.openCard(p)
	for _, k := range []string{"enter", "y", "4"} {
		h.press(k)
		contains(t, h.screen(), k+" does nothing on a card")
	}
	if len(f.answers) != 0 {
		t.Fatalf("an unused key answered the card: %+v", f.answers)
	}
	h.press("t")
	if h.m.view != viewTimeline {
		t.Fatal("t (a lanes key) stopped working under a card")
	}
	notContains(t, h.screen(), "does nothing")
}
