package fakehttp

import (
	"strings"
	"testing"
)

type turn struct {
	name string
	when func(int) bool
}

func TestPlayerTakesTheFirstTurnThatAccepts(t *testing.T) {
	even := func(r int) bool { return r%2 == 0 }
	p := NewPlayer([]turn{{"a", nil}, {"b", even}, {"c", nil}}, func(t turn) func(int) bool { return t.when })
	var got []string
	for _, r := range []int{1, 1, 2, 2} {
		if tt, ok := p.Take(r); ok {
			got = append(got, tt.name)
		} else {
			got = append(got, "-")
		}
	}
	// 1 → a; 1 → c (b waits for an even request); 2 → b; 2 → none left.
	if want := "a c b -"; strings.Join(got, " ") != want {
		t.Fatalf("played %q, want %q", strings.Join(got, " "), want)
	}
	if p.Used() != 3 {
		t.Fatalf("Used = %d, want 3", p.Used())
	}
}
