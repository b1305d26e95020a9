package policy_test

import (
	"fmt"
	"testing"

	"github.com/sentinelhq/sentinel/approvals"
	"github.com/sentinelhq/sentinel/policy"
)

// One decision as a run makes it: the engine's verdict on the line, read
// once, then the remembered templates, matched on the parts the engine
// returned (indexed by program, never reading the line again). With 200
// templates it must stay within 2x of none:
//
//	go test -bench . -run '^$' ./approvals/ ./policy/
func benchDecision(b *testing.B, n int) { benchDecisionOf(b, n, false) }

// benchDecisionOf with sameProgram makes every template name the line's
// own program with other arguments (frobnicate --mode=i), the case an
// index by program cannot narrow.
func benchDecisionOf(b *testing.B, n int, sameProgram bool) {
	ws := b.TempDir()
	ctx := policy.Context{Workspace: ws, Cwd: ws, Home: b.TempDir(), Sandboxed: true}
	line := "frobnicate --all src | sort && frobnicate --check src"
	s := approvals.NewTemplateSet()
	for i := 0; i < n; i++ {
		m := approvals.Match{Prefix: []string{fmt.Sprintf("tool%d", i), "run"}}
		if sameProgram {
			m = approvals.Match{Prefix: []string{"frobnicate", fmt.Sprintf("--mode=%d", i)}}
		}
		if i == n-1 {
			m = approvals.Match{Prefix: []string{"frobnicate"}}
		}
		if _, err := s.Add(approvals.GrantSpec{Scope: approvals.ScopeRun, Match: m}, approvals.Origin{}); err != nil {
			b.Fatal(err)
		}
	}
	e := policy.Default()
	q := policy.Query{Kind: policy.KindShell, Command: line, Context: ctx}
	req := approvals.Request{Kind: policy.KindShell, Command: line}
	if _, ok := s.Covering(req, e.Check(q), ctx); ok != (n > 0) {
		b.Fatalf("covered %v with %d templates", ok, n)
	}
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		s.Covering(req, e.Check(q), ctx)
	}
}

func BenchmarkDecisionNoTemplates(b *testing.B)  { benchDecision(b, 0) }
func BenchmarkDecision200Templates(b *testing.B) { benchDecision(b, 200) }
func BenchmarkDecision200TemplatesSameProgram(b *testing.B) {
	benchDecisionOf(b, 200, true)
}
