package policy

import (
	"strings"
	"testing"
)

func benchCheck(b *testing.B, cmd string) {
	ctx := testEnv(b)
	e := Default()
	q := Query{Kind: KindShell, Command: cmd, Context: ctx}
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		e.Check(q)
	}
}

func BenchmarkCheckTypical(b *testing.B) { benchCheck(b, "go test ./...") }

func BenchmarkCheckTypicalPipeline(b *testing.B) {
	benchCheck(b, "git diff HEAD~1 -- main.go | grep -n func && echo ok > out.txt")
}

func BenchmarkCheckNested(b *testing.B) {
	benchCheck(b, strings.Repeat("$(echo ", 200)+"x"+strings.Repeat(")", 200))
}

func BenchmarkCheck10KB(b *testing.B) {
	var sb strings.Builder
	for sb.Len() < 10*1024 {
		sb.WriteString("git status && ls -la src | grep foo; ")
	}
	benchCheck(b, sb.String())
}

func BenchmarkCheckShPayloads(b *testing.B) {
	benchCheck(b, `sh -c 'bash -c "sh -c \"ls -la; cat README.md\""'`)
}
