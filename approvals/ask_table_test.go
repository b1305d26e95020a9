package approvals

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/sentinelhq/sentinel/internal/poll"
	"github.com/sentinelhq/sentinel/policy"
)

// chainPerson is a fake person: present answers allow at once, away never
// answers (until the request is given up). It records what its card showed.
type chainPerson struct {
	away bool

	mu     sync.Mutex
	asked  int
	advice string
}

func (p *chainPerson) Decide(ctx context.Context, pr *Prompt) Decision {
	p.mu.Lock()
	p.asked++
	p.advice = pr.Recommendation
	p.mu.Unlock()
	if p.away {
		<-ctx.Done()
		return denyBy("timeout", "no answer in time")
	}
	return Decision{Outcome: OutcomeAllow, By: "person", Reason: "approved once"}
}

func (p *chainPerson) seen() (int, string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.asked, p.advice
}

// chainModel is a fake supervisor model. allow also tries to pass as the
// person and to slip in a remembered grant; error panics (a model that
// cannot answer); garbage answers neither allow nor deny, with no advice.
type chainModel struct {
	kind string

	mu              sync.Mutex
	judged, advised int
}

func (m *chainModel) Decide(_ context.Context, _ *Prompt) Decision {
	m.mu.Lock()
	m.judged++
	m.mu.Unlock()
	switch m.kind {
	case "allow":
		return Decision{Outcome: OutcomeAllow, By: "person", Reason: "part of the task", Remember: true,
			Grant: &GrantSpec{Scope: ScopeRun, Match: Match{Prefix: []string{"tool-ask"}}}}
	case "deny":
		return Decision{Outcome: OutcomeDeny, By: BySupervisor, Reason: "not part of the task"}
	case "error":
		panic("the backend exploded")
	}
	return Decision{Outcome: "maybe", Reason: "¯\\_(ツ)_/¯"}
}

func (m *chainModel) Recommend(_ context.Context, _ *Prompt) string {
	m.mu.Lock()
	m.advised++
	m.mu.Unlock()
	switch m.kind {
	case "allow":
		return "supervisor suggests ALLOW"
	case "deny":
		return "supervisor suggests DENY"
	case "error":
		panic("the backend exploded")
	}
	return ""
}

func (m *chainModel) calls() (int, int) {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.judged, m.advised
}

// chainCase is one combination of the chain's links.
type chainCase struct {
	policy   string // allow, deny, ask
	template bool   // a remembered template covers the request
	person   string // present, away, none
	model    string // none, allow, deny, error, garbage
	grace    bool   // walk-away: the model decides what the person leaves
}

// chainWant is what the chain must do for a case.
type chainWant struct {
	outcome     Outcome
	by          string // exact, or a prefix ending in ":"
	reasonHas   string
	personAsked bool
	judged      bool   // the model decided (the judge role)
	advice      string // the card's advice line ("" when none; a prefix)
}

// want pins the outcome of every combination. Read it as the chain's
// specification: policy first, then templates, then who is asked.
func (c chainCase) want() chainWant {
	switch {
	case c.policy == "deny":
		return chainWant{outcome: OutcomeDeny, by: "policy:no-tool", reasonHas: "never this tool"}
	case c.policy == "allow":
		return chainWant{outcome: OutcomeAllow, by: "policy:ok-tool"}
	case c.template:
		return chainWant{outcome: OutcomeAllow, by: "template:"}
	}
	modelSays := func() chainWant {
		switch c.model {
		case "allow":
			return chainWant{outcome: OutcomeAllow, by: BySupervisor, reasonHas: "part of the task", judged: true}
		case "deny":
			return chainWant{outcome: OutcomeDeny, by: BySupervisor, reasonHas: "not part of the task", judged: true}
		case "error":
			return chainWant{outcome: OutcomeDeny, by: BySupervisor, reasonHas: "the backend exploded", judged: true}
		default: // garbage
			return chainWant{outcome: OutcomeDeny, by: BySupervisor, reasonHas: `no valid answer ("maybe")`, judged: true}
		}
	}
	advice := map[string]string{"allow": "supervisor suggests ALLOW", "deny": "supervisor suggests DENY",
		"error": "supervisor: no advice (the model failed: the backend exploded)", "garbage": "supervisor: no advice (the model gave none)"}[c.model]
	timeout := chainWant{outcome: OutcomeDeny, by: "timeout", reasonHas: "no answer within", personAsked: true}
	switch {
	case c.person == "none" && c.model == "none":
		return chainWant{outcome: OutcomeDeny, by: "nobody", reasonHas: "no one to ask"}
	case c.person == "none":
		return modelSays()
	case c.model == "none" && c.person == "present":
		return chainWant{outcome: OutcomeAllow, by: "person", personAsked: true}
	case c.model == "none": // away, nobody else
		return timeout
	case c.grace && c.person == "present": // answered within the grace
		return chainWant{outcome: OutcomeAllow, by: "person", personAsked: true}
	case c.grace: // away: the model decides after the grace
		w := modelSays()
		w.personAsked = true
		return w
	case c.person == "present": // the person decides, with the model's advice
		return chainWant{outcome: OutcomeAllow, by: "person", personAsked: true, advice: advice}
	default: // away, no walk-away: advice on a card nobody answers
		timeout.advice = advice
		return timeout
	}
}

// chainRules make the policy's three answers explicit.
const chainRules = `
[[rule]]
id = "ok-tool"
decision = "allow"
argv = ["tool-ok"]

[[rule]]
id = "no-tool"
decision = "deny"
argv = ["tool-no"]
reason = "never this tool"
`

// TestChainCombinations drives every combination of policy (allow, deny,
// ask) × template (hit, miss) × person (present, away, none) × model (none,
// allow, deny, error, garbage) × walk-away (off, on) through the broker and
// pins who decides and what. A model that cannot answer, or answers
// garbage, is a deny; a model never remembers a grant or passes as the
// person; nobody is asked what policy or a template already decided.
func TestChainCombinations(t *testing.T) {
	rules := filepath.Join(t.TempDir(), "policy.toml")
	if err := os.WriteFile(rules, []byte(chainRules), 0o600); err != nil {
		t.Fatal(err)
	}
	eng, err := policy.Load(rules)
	if err != nil {
		t.Fatal(err)
	}
	var cases []chainCase
	for _, pol := range []string{"allow", "deny", "ask"} {
		for _, tpl := range []bool{false, true} {
			for _, person := range []string{"present", "away", "none"} {
				for _, model := range []string{"none", "allow", "deny", "error", "garbage"} {
					for _, grace := range []bool{false, true} {
						cases = append(cases, chainCase{pol, tpl, person, model, grace})
					}
				}
			}
		}
	}
	for _, c := range cases {
		name := fmt.Sprintf("policy=%s/template=%v/person=%s/model=%s/walkaway=%v", c.policy, c.template, c.person, c.model, c.grace)
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			w := c.want()
			set := NewTemplateSet()
			cmd := map[string]string{"allow": "tool-ok run", "deny": "tool-no run", "ask": "tool-ask run"}[c.policy]
			if c.template {
				if _, err := set.Add(GrantSpec{Scope: ScopeRun, Match: Match{Exact: strings.Fields(cmd)}}, Origin{Run: "r-test"}); err != nil {
					t.Fatal(err)
				}
			}
			var a Ask
			var who *chainPerson
			var mdl *chainModel
			if c.person != "none" {
				who = &chainPerson{away: c.person == "away"}
				a.Person = who
			}
			if c.model != "none" {
				mdl = &chainModel{kind: c.model}
				a.Model = mdl
			}
			if c.grace {
				// a present person answers well within the grace; an away
				// one lets it run out
				a.Grace = time.Hour
				if c.person == "away" {
					a.Grace = time.Millisecond
				}
			}
			timeout := time.Minute // only the cases that must time out wait for it
			if w.by == "timeout" {
				timeout = 100 * time.Millisecond
			}
			r := startBroker(t, BrokerConfig{Policy: eng, Templates: set, Decider: a, Timeout: timeout})
			d := r.broker.Decide(context.Background(), Request{Kind: policy.KindShell, Command: cmd, Adapter: "test"})

			if d.Outcome != w.outcome {
				t.Errorf("outcome %s by %s (%s), want %s", d.Outcome, d.By, d.Reason, w.outcome)
			}
			if strings.HasSuffix(w.by, ":") && !strings.HasPrefix(d.By, w.by) || !strings.HasSuffix(w.by, ":") && d.By != w.by {
				t.Errorf("by %q, want %q", d.By, w.by)
			}
			if !strings.Contains(d.Reason, w.reasonHas) {
				t.Errorf("reason %q does not say %q", d.Reason, w.reasonHas)
			}
			if !d.Allowed() && !strings.Contains(d.Message, d.Reason) {
				t.Errorf("the coder's message %q does not carry the reason %q", d.Message, d.Reason)
			}
			asked, advice := 0, ""
			if who != nil {
				asked, advice = who.seen()
				// Walk-away asks the person from a goroutine of its own: wait
				// for that ask to land rather than race it.
				if w.personAsked {
					poll.Until(time.Minute, func() bool { asked, advice = who.seen(); return asked > 0 }) // a hang bound
				}
			}
			if (asked > 0) != w.personAsked {
				t.Errorf("person asked %d times, want asked=%v", asked, w.personAsked)
			}
			if !strings.HasPrefix(advice, w.advice) || (w.advice == "") != (advice == "") {
				t.Errorf("the card's advice %q, want %q", advice, w.advice)
			}
			judged, advised := 0, 0
			if mdl != nil {
				judged, advised = mdl.calls()
			}
			if (judged > 0) != w.judged {
				t.Errorf("model judged %d times, want judged=%v", judged, w.judged)
			}
			if (advised > 0) != (w.advice != "") {
				t.Errorf("model advised %d times, want advice %q", advised, w.advice)
			}
			// only the person remembers: the model's slipped-in grant is dropped
			if n := len(set.All()); n != btoi(c.template) {
				t.Errorf("%d templates after the decision, want %d", n, btoi(c.template))
			}
			for _, ev := range r.events(t) {
				if ev.Kind == KindTemplateAdded {
					t.Errorf("a template was remembered: %s", ev.Text)
				}
			}
		})
	}
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}

// What only a person may approve never reaches the model, in any mode.
func TestAskNeverDelegable(t *testing.T) {
	prompt := func() *Prompt {
		return NewPrompt(Request{Kind: policy.KindNet, Host: "evil.example", Port: 443},
			policy.Verdict{Decision: policy.Ask, Reason: "unknown host", NeverDelegable: true})
	}
	t.Run("model alone", func(t *testing.T) {
		m := &chainModel{kind: "allow"}
		d := Ask{Model: m}.Decide(context.Background(), prompt())
		if d.Allowed() || d.By != ByNobody || !strings.Contains(d.Reason, "only a person may approve this (unknown host)") {
			t.Fatalf("decision %+v", d)
		}
		if j, a := m.calls(); j+a != 0 {
			t.Fatalf("the model was asked (%d judge, %d advice turns)", j, a)
		}
	})
	t.Run("advice", func(t *testing.T) {
		m := &chainModel{kind: "allow"}
		who := &chainPerson{}
		d := Ask{Person: who, Model: m}.Decide(context.Background(), prompt())
		if n, adv := who.seen(); !d.Allowed() || d.By != "person" || n != 1 || adv != "" {
			t.Fatalf("decision %+v, person asked %d, advice %q", d, n, adv)
		}
		if j, a := m.calls(); j+a != 0 {
			t.Fatalf("the model was asked (%d judge, %d advice turns)", j, a)
		}
	})
	t.Run("walk-away", func(t *testing.T) {
		m := &chainModel{kind: "allow"}
		ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
		defer cancel()
		d := Ask{Person: &chainPerson{away: true}, Model: m, Grace: time.Millisecond}.Decide(ctx, prompt())
		if d.Allowed() {
			t.Fatalf("decision %+v", d)
		}
		if j, a := m.calls(); j+a != 0 {
			t.Fatalf("the model was asked (%d judge, %d advice turns)", j, a)
		}
	})
	t.Run("a model that allows it anyway", func(t *testing.T) {
		// the chain holds a model's answer to the contract even where it
		// did ask (a verdict marked after the fact)
		p := prompt()
		p.Verdict.NeverDelegable = false
		m := DeciderFunc(func(context.Context, *Prompt) Decision {
			p.Verdict.NeverDelegable = true
			return Decision{Outcome: OutcomeAllow, By: BySupervisor}
		})
		d := Ask{Model: modelOf{m}}.judge(context.Background(), p)
		if d.Allowed() {
			t.Fatalf("decision %+v", d)
		}
	})
}

// modelOf makes a Decider a Model with no advice.
type modelOf struct{ Decider }

func (modelOf) Recommend(context.Context, *Prompt) string { return "" }

// A nil *PersonQueue (a run without a person) is nobody, not a person
// who fails.
func TestAskTypedNilIsNobody(t *testing.T) {
	var q *PersonQueue
	d := Ask{Person: q}.Decide(context.Background(), NewPrompt(Request{Kind: policy.KindShell, Command: "x"}, policy.Verdict{}))
	if d.Allowed() || d.By != "nobody" {
		t.Fatalf("decision %+v", d)
	}
}

// An advice turn that ignores its context does not hold the card.
func TestAskAdviceIsBounded(t *testing.T) {
	block := make(chan struct{})
	defer close(block)
	who := &chainPerson{}
	m := &slowAdvice{block: block}
	d := Ask{Person: who, Model: m, AdviceTimeout: time.Millisecond}.Decide(context.Background(),
		NewPrompt(Request{Kind: policy.KindShell, Command: "x"}, policy.Verdict{Decision: policy.Ask}))
	if _, adv := who.seen(); d.By != "person" || adv != "supervisor: no advice (none in time)" {
		t.Fatalf("decision %+v, advice %q", d, adv)
	}
}

type slowAdvice struct{ block chan struct{} }

func (slowAdvice) Decide(context.Context, *Prompt) Decision { return Decision{} }
func (s slowAdvice) Recommend(context.Context, *Prompt) string {
	<-s.block
	return "late"
}
