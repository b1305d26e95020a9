package approvals

import (
	"fmt"
	"testing"

	"github.com/sentinelhq/sentinel/policy"
)

// One decision as a run makes it: the engine's verdict on the line, read
// once, then the remembered templates, matched on the parts the engine
// returned (indexed by program, never reading the line again). With 200
// templates it must stay within 2x of none:
//
//	go test -bench Decision -run '^$' ./approvals/
//
// (It lives in approvals' tests, not policy's: a policy test importing
// approvals made go compile approvals a second time for policy's test
// binary, every cold build.)
func benchDecisionReadOnce(b *testing.B, n int) { benchDecisionReadOnceOf(b, n, false) }

// benchDecisionReadOnceOf with sameProgram makes every template name the line's
// own program with other arguments (frobnicate --mode=i), the case an
// index by program cannot narrow.
func benchDecisionReadOnceOf(b *testing.B, n int, sameProgram bool) {
	ws := b.TempDir()
	ctx := policy.Context{Workspace: ws, Cwd: ws, Home: b.TempDir(), Sandboxed: true}
	line := "frobnicate --all src | sort && frobnicate --check src"
	s := NewTemplateSet()
	for i := 0; i < n; i++ {
		m := Match{Prefix: []string{fmt.Sprintf("tool%d", i), "run"}}
		if sameProgram {
			m = Match{Prefix: []string{"frobnicate", fmt.Sprintf("--mode=%d", i)}}
		}
		if i == n-1 {
			m = Match{Prefix: []string{"frobnicate"}}
		}
		if _, err := s.Add(GrantSpec{Scope: ScopeRun, Match: m}, Origin{}); err != nil {
			b.Fatal(err)
		}
	}
	e := policy.Default()
	q := policy.Query{Kind: policy.KindShell, Command: line, Context: ctx}
	req := Request{Kind: policy.KindShell, Command: line}
	if _, ok := s.Covering(req, e.Check(q), ctx); ok != (n > 0) {
		b.Fatalf("covered %v with %d templates", ok, n)
	}
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		s.Covering(req, e.Check(q), ctx)
	}
}

func BenchmarkDecisionReadOnceNoTemplates(b *testing.B)  { benchDecisionReadOnce(b, 0) }
func BenchmarkDecisionReadOnce200Templates(b *testing.B) { benchDecisionReadOnce(b, 200) }
func BenchmarkDecisionReadOnce200TemplatesSameProgram(b *testing.B) {
	benchDecisionReadOnceOf(b, 200, true)
}
