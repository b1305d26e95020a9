package vterm

import (
	"fmt"
	"math/rand/v2"
	"os"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
)

func recordedClaude(t testing.TB) []byte { return recording(t, "claude-code-2.1.332.pty") }

// recording reads one of the coders' recorded outputs in tui's testdata.
func recording(t testing.TB, name string) []byte {
	b, err := os.ReadFile("../testdata/" + name)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// Claude Code's and Codex's recorded output draw as x/vt drew them, at
// every size and however they are cut into writes.
func TestRecordedCodersMatchXVT(t *testing.T) {
	if outsideRace.Ran(t) { // child_test.go
		return
	}
	for _, name := range []string{"claude-code-2.1.332.pty", "codex-0.171.0.pty"} {
		rec := recording(t, name)
		for _, sz := range sizes {
			for _, chunk := range []int{len(rec), 4096, 7, 1, 0} {
				p := newPair(t, sz[0], sz[1])
				feed(t, p, rec, chunk, rand.New(rand.NewPCG(1, uint64(chunk))))
			}
		}
	}
}

// A test log scrolling the screen draws as x/vt drew it.
func TestTestLogMatchesXVT(t *testing.T) {
	if outsideRace.Ran(t) { // child_test.go
		return
	}
	log := testLog(300)
	for _, sz := range sizes {
		for _, chunk := range []int{len(log), 4096, 13, 0} {
			p := newPair(t, sz[0], sz[1])
			feed(t, p, log, chunk, rand.New(rand.NewPCG(2, uint64(chunk))))
		}
	}
}

// Resizing keeps the screen as x/vt keeps it, on either screen.
func TestResizeMatchesXVT(t *testing.T) {
	for _, in := range [][]byte{recordedClaude(t), recording(t, "codex-0.171.0.pty"), testLog(100)} {
		p := newPair(t, 80, 24)
		rng := rand.New(rand.NewPCG(3, 3))
		for i := 0; len(in) > 0; i++ {
			k := min(1+rng.IntN(500), len(in))
			p.write(in[:k])
			in = in[k:]
			p.resize(10+rng.IntN(130), 3+rng.IntN(50))
			if !p.check("after resize") {
				return
			}
		}
	}
}

// Random output (text of every width, controls, escape sequences with wild
// parameters, broken sequences) draws as x/vt draws it: 300 seeds, drawn
// without -race (child_test.go).
func TestRandomOutputMatchesXVT(t *testing.T) {
	if outsideRace.Ran(t) {
		return
	}
	seeds := 300
	if testing.Short() {
		seeds = 30
	}
	for seed := range seeds {
		sz := sizes[seed%len(sizes)]
		rng := rand.New(rand.NewPCG(uint64(seed), 7))
		p := newPair(t, sz[0], sz[1])
		for i := range 40 {
			p.write(genStream(rng, sz[0], sz[1], 1+rng.IntN(60)))
			if !p.check(fmt.Sprintf("seed %d step %d", seed, i)) {
				return
			}
		}
	}
}

// FuzzMatchesXVT holds any output to x/vt's drawing, at 33×7 (the smallest
// size compared, where wrapping and scrolling happen most).
func FuzzMatchesXVT(f *testing.F) {
	f.Add([]byte("hello\r\nworld\x1b[2;3Hé中\x1b[1;31mx\x1b[K"))
	f.Add(recordedClaude(f)[:2000])
	f.Add(recording(f, "codex-0.171.0.pty")[:2000])
	f.Add(genStream(rand.New(rand.NewPCG(9, 9)), 33, 7, 200))
	f.Fuzz(func(t *testing.T, b []byte) {
		if hasExcepted(b) {
			t.Skip("input outside the compared behaviour (see the exceptions)")
		}
		p := newPair(t, 33, 7)
		p.write(b)
		p.check("fuzz input")
	})
}

// hasExcepted reports whether b holds a sequence listed in the exceptions
// for the fuzz target's 33×7 screen: a margin past the screen, a count so
// large x/vt would loop for it, or a zero count.
func hasExcepted(b []byte) bool {
	found := false
	p := ansi.NewParser()
	p.SetHandler(ansi.Handler{HandleCsi: func(cmd ansi.Cmd, params ansi.Params) {
		for i := range params {
			if params[i].Param(0) > 9999 {
				found = true
			}
		}
		if cmd.Prefix() == 0 && cmd.Intermediate() == 0 {
			if n, _, ok := params.Param(1, 0); ok && (cmd.Final() == 'r' && n > 7 || cmd.Final() == 's' && n > 33) {
				found = true
			}
			if n, _, _ := params.Param(0, -1); n == 0 && strings.IndexByte(zeroCountFinals, cmd.Final()) >= 0 {
				found = true
			}
		}
	}})
	for _, c := range b {
		p.Advance(c)
	}
	return found
}
