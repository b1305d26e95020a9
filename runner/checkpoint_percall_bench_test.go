//go:build unix

package runner

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/sentinelhq/sentinel/approvals"
	"github.com/sentinelhq/sentinel/approvals/wire"
	"github.com/sentinelhq/sentinel/internal/journal"
	"github.com/sentinelhq/sentinel/internal/poll"
	"github.com/sentinelhq/sentinel/internal/slowtell"
	"github.com/sentinelhq/sentinel/internal/testbin"
	"github.com/sentinelhq/sentinel/policy"
	"github.com/sentinelhq/sentinel/runner/checkpoint"
)

// The per-call point sits on the broker's hot path (BeforeAllow): every
// allowed call that can write waits for it. These benchmarks put its cost
// beside one hook round trip, what the agent pays for every tool call
// anyway (`sentinel-helper hook claude`: a process start, a socket round
// trip, the policy and the journal), in a place of 3000 files (1–8 KiB in
// 100 directories):
//
//	go test ./runner -run '^$' -bench 'CallPoint|HookRoundTrip' -benchtime 50x
//
// BenchmarkCallPoint: the call before changed one file (a walk with
// stamps, one file read and stored, one manifest saved).
// BenchmarkCallPointUnchanged: nothing changed since the last point (a
// read, a build, a search: most calls).
// BenchmarkHookRoundTrip / …WithPoint: the whole round trip of an allowed
// `ls` without and with the point before it.

// On a shared, loaded machine the wall clock says more about the
// neighbours than about the code: each benchmark also reports cpu-ms/op,
// the CPU this process and the hooks it waited for used (cpuTime, in
// workspace_bench_test.go).

// reportCPU reports the CPU used since start per iteration.
func reportCPU(b *testing.B, start time.Duration) {
	b.ReportMetric(float64(cpuTime()-start)/float64(time.Millisecond)/float64(b.N), "cpu-ms/op")
}

// benchPlace is a place of 3000 files whose stamps are past the racy
// margin (steady state: a freshly written tree's files are re-read until
// then; the setup waits that out once, nothing is timed by it).
func benchPlace(b *testing.B) string {
	b.Helper()
	b.Setenv("XDG_STATE_HOME", b.TempDir())
	b.Setenv("XDG_CACHE_HOME", b.TempDir())
	b.Setenv("XDG_CONFIG_HOME", b.TempDir())
	root, _ := filepath.EvalSymlinks(b.TempDir())
	for i := 0; i < 3000; i++ {
		p := filepath.Join(root, fmt.Sprintf("d%02d/sub/f%04d.txt", i%100, i))
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(strings.Repeat("x", 1024*(1+i%8))), 0o644); err != nil {
			b.Fatal(err)
		}
	}
	// Two seconds past the last write, as a real tree is: the checkpoint
	// reads a file changed within the last two seconds every time.
	if !poll.ClockPast(time.Now().Unix()+1, 10*time.Second) {
		b.Fatal("the clock did not move two seconds past the tree's writes")
	}
	return root
}

// benchCheckpoint is an in-place run's checkpoint of root.
func benchCheckpoint(b *testing.B, root string) *inPlaceCheckpoint {
	b.Helper()
	s, err := checkpoint.Open(root)
	if err != nil {
		b.Fatal(err)
	}
	m, err := checkpoint.Take(s, root, checkpoint.Options{})
	if err != nil {
		b.Fatal(err)
	}
	id := NewRunID(time.Now())
	rec := &checkpoint.Record{ID: id, Kind: "exec", Place: root}
	if err := s.SaveManifest(id, "before", m); err != nil {
		b.Fatal(err)
	}
	return &inPlaceCheckpoint{store: s, before: m, rec: rec, tellAfter: slowtell.After}
}

func BenchmarkCallPoint(b *testing.B) {
	root := benchPlace(b)
	c := benchCheckpoint(b, root)
	req := approvals.Request{Kind: policy.KindShell, Command: "edit"}
	i := 0
	cpu := cpuTime()
	for b.Loop() {
		i++
		if err := os.WriteFile(filepath.Join(root, "d00/sub/f0000.txt"), []byte(strings.Repeat("y", i%4096+1)), 0o644); err != nil {
			b.Fatal(err)
		}
		c.calls.taken = 0 // the bound is not what is measured
		c.beforeCall(req, noEmit)
		if c.calls.off != "" {
			b.Fatal(c.calls.off)
		}
	}
	reportCPU(b, cpu)
}

func BenchmarkCallPointUnchanged(b *testing.B) {
	root := benchPlace(b)
	c := benchCheckpoint(b, root)
	req := approvals.Request{Kind: policy.KindShell, Command: "ls"}
	cpu := cpuTime()
	for b.Loop() {
		c.calls.taken = 0
		c.beforeCall(req, noEmit)
		if c.calls.off != "" {
			b.Fatal(c.calls.off)
		}
	}
	reportCPU(b, cpu)
}

func BenchmarkHookRoundTrip(b *testing.B)          { benchHookRoundTrip(b, false) }
func BenchmarkHookRoundTripWithPoint(b *testing.B) { benchHookRoundTrip(b, true) }

// benchHookRoundTrip runs the real hook (sentinel-helper hook claude) for
// an `ls` the policy allows, against an in-place run's broker.
func benchHookRoundTrip(b *testing.B, point bool) {
	bin, err := testbin.SentinelWithHelper()
	if err != nil {
		b.Fatal(err)
	}
	helper := filepath.Join(filepath.Dir(bin), "sentinel-helper")
	root := benchPlace(b)
	c := benchCheckpoint(b, root)
	p := &Project{Root: root}
	dir := b.TempDir()
	j, err := journal.Open(filepath.Join(dir, "events.jsonl"), c.rec.ID)
	if err != nil {
		b.Fatal(err)
	}
	ws := &Workspace{Dir: root}
	if point {
		ws.checkpoint = c
	}
	r := &containment{runCore: &runCore{opts: Options{Project: p, InPlace: true, Approval: ApprovalOptions{Timeout: 5 * time.Second}},
		id: c.rec.ID, dir: dir, ws: ws, journal: j, adapter: &commandAdapter{argv: []string{"true"}}}}
	if err := r.startBroker(); err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { r.broker.Close(); j.Close() })
	payload := []byte(`{"hook_event_name":"PreToolUse","cwd":"` + root + `","tool_name":"Bash","tool_input":{"command":"ls"},"tool_use_id":"toolu_1"}`)
	env := append(os.Environ(), wire.EnvSocket+"="+r.socketPath())
	cpu := cpuTime()
	for b.Loop() {
		c.calls.taken = 0
		cmd := exec.CommandContext(context.Background(), helper, "hook", "claude")
		cmd.Stdin, cmd.Env = bytes.NewReader(payload), env
		out, err := cmd.Output()
		if err != nil || !bytes.Contains(out, []byte(`"allow"`)) {
			b.Fatalf("the hook did not allow ls: %v\n%s", err, out)
		}
	}
	reportCPU(b, cpu)
	if point && len(c.rec.Points) == 0 {
		b.Fatal("no point was taken")
	}
}
