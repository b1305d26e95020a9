package supervisor

import (
	"context"
	"testing"
	"time"

	"github.com/sentinelhq/sentinel/internal/fakeopenai"
)

// roleServer starts a fake OpenAI-compatible server answering every
// request with content, and a backend on it.
func roleServer(t *testing.T, content string) (*fakeopenai.Server, Backend) {
	t.Helper()
	srv, err := fakeopenai.Start(fakeopenai.Reply{Content: content})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { srv.Close() })
	b, err := New(Config{Backend: KindOpenAI, BaseURL: srv.URL, Model: "m"})
	if err != nil {
		t.Fatal(err)
	}
	return srv, b
}

// Each role's turns go to the model configured for it, and only there: a
// judge on a cheap local model never sees the review, and the base
// backend, which no role uses here, is asked nothing.
func TestEachRolesTurnReachesItsOwnModel(t *testing.T) {
	base, baseB := roleServer(t, "not JSON: the base model must not be asked")
	judge, judgeB := roleServer(t, `{"decision":"allow","reason":"the judge's own model","risk":"low"}`)
	review, reviewB := roleServer(t, `{"verdict":"accept","reason":"the reviewer's own model","missing":[]}`)
	adv, advB := roleServer(t, `{"probes":[{"command":"true","expect":"the adversary's own model"}]}`)
	relay, relayB := roleServer(t, `{"to_coder":"from the relay's own model","to_person":"","standing_decision":"","reason":"r"}`)
	j, read := openJournal(t)
	s := NewSupervisor(Options{Backend: baseB, Task: "make the tests pass", Journal: j, Roles: map[Role]RoleModel{
		RoleJudge: {Backend: judgeB}, RoleReviewer: {Backend: reviewB}, RoleAdversary: {Backend: advB}, RoleRelay: {Backend: relayB},
	}})
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if d := s.Decide(ctx, shellPrompt("go test ./...")); !d.Allowed() {
		t.Errorf("judge: %+v", d)
	}
	if _, err := s.Advise(ctx, shellPrompt("make lint")); err != nil {
		t.Errorf("advice: %v", err)
	}
	if r, err := s.Review(ctx, ReviewInput{Summary: "done", Diffstat: "a.go | 1 +"}); err != nil || !r.Accepted() {
		t.Errorf("review: %+v %v", r, err)
	}
	if p, err := s.Adversary(ctx, AdversaryInput{Diffstat: "a.go | 1 +"}); err != nil || len(p) != 1 {
		t.Errorf("adversary: %+v %v", p, err)
	}
	if r, err := s.Relay(ctx, "no new dependencies"); err != nil || r.ToCoder != "from the relay's own model" {
		t.Errorf("relay: %+v %v", r, err)
	}
	for name, c := range map[string]struct {
		srv  *fakeopenai.Server
		want int
	}{"base": {base, 0}, "judge": {judge, 2}, "reviewer": {review, 1}, "adversary": {adv, 1}, "relay": {relay, 1}} {
		if n := len(c.srv.Requests()); n != c.want {
			t.Errorf("the %s server got %d requests, want %d", name, n, c.want)
		}
	}
	// The journal says which model answered each turn.
	names := map[string]bool{}
	for _, ev := range read() {
		if rec, ok := AsTurn(ev); ok {
			names[string(rec.Role)+" "+rec.Backend] = true
		}
	}
	if !names["judge "+judgeB.Name()] || !names["review "+reviewB.Name()] {
		t.Errorf("journaled turns: %v", names)
	}
}

// A role without its own model uses the base one, with the base turn
// bound; a role's own bound applies to its turns only.
func TestARoleWithoutItsOwnModelUsesTheBase(t *testing.T) {
	base, baseB := roleServer(t, `{"verdict":"accept","reason":"base","missing":[]}`)
	judge, judgeB := roleServer(t, `{"decision":"allow","reason":"j","risk":"low"}`)
	s := NewSupervisor(Options{Backend: baseB, Timeout: 7 * time.Second, Roles: map[Role]RoleModel{RoleJudge: {Backend: judgeB, Timeout: 3 * time.Second}}})
	if b, d := s.model(KindReview); b != baseB || d != 7*time.Second {
		t.Errorf("review: %v %s", b, d)
	}
	if b, d := s.model(KindAdvice); b != judgeB || d != 3*time.Second {
		t.Errorf("advice: %v %s", b, d)
	}
	if _, err := s.Review(context.Background(), ReviewInput{Summary: "done"}); err != nil {
		t.Fatal(err)
	}
	if len(base.Requests()) != 1 || len(judge.Requests()) != 0 {
		t.Errorf("base %d, judge %d requests", len(base.Requests()), len(judge.Requests()))
	}
}

// ForRole: a role that names its own backend takes only its own section
// (the base URL and model variables set the base, not it); one that does
// not inherits every key it leaves unset, its own key variable included.
func TestForRoleInheritsOrStandsAlone(t *testing.T) {
	env := map[string]string{EnvBaseURL: "http://env.example/v1", EnvModel: "env-model", "OPENAI_API_KEY": "sk-openai", "JUDGE_KEY": "sk-judge", "ANTHROPIC_API_KEY": "sk-ant"}
	getenv := func(k string) string { return env[k] }
	base := Config{Backend: KindOpenAI, Timeout: "30s", MaxTokens: 2000, Prompts: "p.toml"}.Resolve(getenv)
	if base.BaseURL != "http://env.example/v1" || base.Model != "env-model" || base.apiKey != "sk-openai" {
		t.Fatalf("base: %+v", base)
	}
	j := base.ForRole(Config{Model: "small", APIKeyEnv: "JUDGE_KEY"}, getenv)
	if j.Backend != KindOpenAI || j.BaseURL != "http://env.example/v1" || j.Model != "small" || j.Timeout != "30s" || j.MaxTokens != 2000 || j.apiKey != "sk-judge" || j.Prompts != "p.toml" {
		t.Errorf("inheriting role: %+v", j)
	}
	r := base.ForRole(Config{Backend: KindAnthropic}, getenv)
	if r.Backend != KindAnthropic || r.BaseURL != "" || r.Model != DefaultAnthropicModel || r.Timeout != "" || r.MaxTokens != 0 || r.apiKey != "sk-ant" || r.Prompts != "p.toml" {
		t.Errorf("role with its own backend: %+v", r)
	}
	if k := base.ForRole(Config{APIKeyEnv: "UNSET_KEY"}, getenv); k.apiKey != "" {
		t.Errorf("a role naming an unset key variable kept the base key: %+v", k)
	}
}
