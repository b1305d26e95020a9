package approvals

import (
	"fmt"
	"testing"

	"github.com/sentinelhq/sentinel/policy"
)

// benchDecision times one decision as the broker makes it: the policy's
// verdict, then the remembered templates, for a line the policy asks about
// and n templates (one of which covers it when n > 0; the others name other
// programs and other words of the same program). Compare
//
//	go test -bench Decision -run '^$' ./approvals/
//
// BenchmarkDecision200Templates must stay within 2x of 0Templates.
func benchDecision(b *testing.B, n int) {
	ws := b.TempDir()
	ctx := policy.Context{Workspace: ws, Cwd: ws, Home: b.TempDir(), Sandboxed: true}
	line := "frobnicate --all src && frobnicate --check src"
	s := NewTemplateSet()
	for i := 0; i < n-1; i++ {
		prog := fmt.Sprintf("tool%d", i%50)
		if i%4 == 0 {
			prog = "frobnicate"
		}
		if _, err := s.Add(GrantSpec{Scope: ScopeRun, Match: Match{Prefix: []string{prog, fmt.Sprintf("--opt%d", i)}}}, Origin{}); err != nil {
			b.Fatal(err)
		}
	}
	if n > 0 {
		if _, err := s.Add(GrantSpec{Scope: ScopeRun, Match: Match{Prefix: []string{"frobnicate"}}}, Origin{}); err != nil {
			b.Fatal(err)
		}
	}
	e := policy.Default()
	req := Request{Kind: policy.KindShell, Command: line}
	q := policy.Query{Kind: policy.KindShell, Command: line, Context: ctx}
	if v := e.Check(q); v.Decision != policy.Ask {
		b.Fatalf("the line is %s, want ask", v.Decision)
	}
	if _, ok := s.Covering(req, e.Check(q), ctx); ok != (n > 0) {
		b.Fatalf("covered %v with %d templates", ok, n)
	}
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		s.Covering(req, e.Check(q), ctx)
	}
}

func BenchmarkDecision0Templates(b *testing.B)   { benchDecision(b, 0) }
func BenchmarkDecision50Templates(b *testing.B)  { benchDecision(b, 50) }
func BenchmarkDecision200Templates(b *testing.B) { benchDecision(b, 200) }
