package sandbox

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"testing"
	"time"
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

// BenchmarkGoTestInsideVsOutside is `go test ./...` of a middle-sized
// module run directly and inside the sandbox as a coder's command runs it
// (DefaultProfile with the person's toolchains and module cache, the
// project's own build cache from WithCaches), in pairs, with warm caches:
//
//	go test -run '^$' -bench GoTestInsideVsOutside -benchtime 10x ./sandbox
//
// The module is a copy of this repository's policy package (about 9,500
// lines with its tests; it imports BurntSushi/toml, golang.org/x/text and
// mvdan.cc/sh from the Go module cache) kept at one place under the temp
// dir, so its project build cache stays warm from one benchmark run to the
// next. "run" is go test -count=1 (nothing to compile: link and run the
// tests), "cached" is go test answered from the test result cache. Each
// iteration runs outside then inside; the metrics are the medians and the
// least of the per-pair ratios inside/outside and the median seconds of
// each side. The pairing keeps the ratio meaningful on a busy machine.
func BenchmarkGoTestInsideVsOutside(b *testing.B) {
	if _, err := exec.LookPath("go"); err != nil {
		b.Skip("no go on this machine")
	}
	mod := benchModule(b)
	home, _ := os.UserHomeDir()
	p, err := DefaultProfile(mod, home).WithCaches(mod)
	if err != nil {
		b.Fatal(err)
	}
	s, err := Prepare(p, Options{Helper: helperBin})
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	for _, tc := range []struct {
		name string
		args []string
	}{{"run", []string{"test", "-count=1", "./..."}}, {"cached", []string{"test", "./..."}}} {
		b.Run(tc.name, func(b *testing.B) {
			run := func(inside bool) float64 {
				var cmd *exec.Cmd
				if inside {
					if cmd, err = s.Command(context.Background(), mod, append([]string{"go"}, tc.args...)...); err != nil {
						b.Fatal(err)
					}
				} else {
					cmd = exec.Command("go", tc.args...)
					cmd.Dir = mod
				}
				start := time.Now()
				if out, err := cmd.CombinedOutput(); err != nil {
					b.Fatalf("go %v (inside %v): %v\n%s", tc.args, inside, err, out)
				}
				return time.Since(start).Seconds()
			}
			run(false) // warm both caches
			run(true)
			var in, out, ratio []float64
			for b.Loop() {
				o, i := run(false), run(true)
				out, in, ratio = append(out, o), append(in, i), append(ratio, i/o)
			}
			b.ReportMetric(median(ratio), "ratio-median")
			b.ReportMetric(slices.Min(ratio), "ratio-min")
			b.ReportMetric(median(out), "outside-s")
			b.ReportMetric(median(in), "inside-s")
		})
	}
}

func median(v []float64) float64 {
	s := slices.Clone(v)
	slices.Sort(s)
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}

// benchModule copies the policy package with go.mod, go.sum and README.md
// (a test reads it) to a fixed directory under the temp dir.
func benchModule(b *testing.B) string {
	b.Helper()
	dst := filepath.Join(os.TempDir(), "sentinel-bench-gotest")
	src, err := filepath.Abs("..")
	if err != nil {
		b.Fatal(err)
	}
	for _, f := range []string{"go.mod", "go.sum", "README.md"} {
		copyIfChanged(b, filepath.Join(src, f), filepath.Join(dst, f))
	}
	err = filepath.WalkDir(filepath.Join(src, "policy"), func(path string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(src, path)
		copyIfChanged(b, path, filepath.Join(dst, rel))
		return nil
	})
	if err != nil {
		b.Fatal(err)
	}
	return dst
}

// copyIfChanged leaves an unchanged file alone, so its modification time
// (which the test result cache looks at) stays.
func copyIfChanged(b *testing.B, from, to string) {
	data, err := os.ReadFile(from)
	if err != nil {
		b.Fatal(err)
	}
	if old, err := os.ReadFile(to); err == nil && bytes.Equal(old, data) {
		return
	}
	if err := os.MkdirAll(filepath.Dir(to), 0o755); err != nil {
		b.Fatal(err)
	}
	if err := os.WriteFile(to, data, 0o644); err != nil {
		b.Fatal(err)
	}
}

// BenchmarkStartWithPlaceInEtc is a sandboxed start with and without a
// place inside /etc that the host lacks (Claude Code's managed settings at
// /etc/claude-code), the splice places_linux.go makes:
//
//	go test -run '^$' -bench StartWithPlaceInEtc -benchtime 20x ./sandbox
//
// cpu-ms/op is the user and system time of the sandbox's processes (from
// their rusage: comparable on a loaded machine), mounts/op the lines of
// /proc/self/mountinfo inside.
func BenchmarkStartWithPlaceInEtc(b *testing.B) {
	ms := []Mode{ModeNS}
	if _, err := exec.LookPath("bwrap"); err == nil {
		ms = append(ms, ModeBwrap)
	}
	src := filepath.Join(b.TempDir(), "managed-settings.json")
	if err := os.WriteFile(src, []byte("{}"), 0o644); err != nil {
		b.Fatal(err)
	}
	for _, m := range ms {
		for _, withPlace := range []bool{false, true} {
			name := string(m) + "/none"
			var places []Place
			if withPlace {
				name = string(m) + "/etc"
				places = []Place{{Path: "/etc/sentinel-bench-place/managed-settings.json", Source: src}}
			}
			b.Run(name, func(b *testing.B) {
				s, err := Prepare(Profile{Workspace: b.TempDir(), Net: NetNone, Places: places}, Options{Mode: m, Helper: helperBin})
				if err != nil {
					b.Fatal(err)
				}
				defer s.Close()
				var cpu time.Duration
				mounts := 0
				for b.Loop() {
					cmd, err := s.Command(context.Background(), "", "sh", "-c", "wc -l </proc/self/mountinfo")
					if err != nil {
						b.Fatal(err)
					}
					out, err := cmd.CombinedOutput()
					if err != nil {
						b.Fatalf("%v: %s", err, out)
					}
					cpu += cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()
					mounts, _ = strconv.Atoi(string(bytes.TrimSpace(out)))
				}
				b.ReportMetric(float64(cpu.Microseconds())/1000/float64(b.N), "cpu-ms/op")
				b.ReportMetric(float64(mounts), "mounts/op")
			})
		}
	}
}
