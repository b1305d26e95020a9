package sandbox

import (
	"context"
	"os/exec"
	"testing"
)

// The added start-up cost of a sandboxed process: compare
//
//	go test -run '^$' -bench Start -benchtime 50x ./sandbox
//
// BenchmarkStartBare with BenchmarkStartSandboxed/{ns,bwrap}.
func BenchmarkStartBare(b *testing.B) {
	for b.Loop() {
		if err := exec.Command("true").Run(); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkStartSandboxed(b *testing.B) {
	ms := []Mode{ModeNS}
	if _, err := exec.LookPath("bwrap"); err == nil {
		ms = append(ms, ModeBwrap)
	}
	for _, m := range ms {
		for _, net := range []NetMode{NetNone, NetProxy} {
			b.Run(string(m)+"/"+string(net), func(b *testing.B) {
				s, err := Prepare(Profile{Workspace: b.TempDir(), Net: net}, Options{Mode: m, Helper: helperBin})
				if err != nil {
					b.Fatal(err)
				}
				defer s.Close()
				for b.Loop() {
					cmd, err := s.Command(context.Background(), "", "true")
					if err != nil {
						b.Fatal(err)
					}
					if out, err := cmd.CombinedOutput(); err != nil {
						b.Fatalf("%v: %s", err, out)
					}
				}
			})
		}
	}
}
