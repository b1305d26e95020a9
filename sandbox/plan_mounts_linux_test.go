package sandbox

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// The Linux backends mount the plan Seatbelt renders: every list of the
// helper's spec comes from PlanOf, so a path the plan hides, protects or
// shares is hidden, protected or shared the same way on both.
func TestLinuxSpecIsThePlan(t *testing.T) {
	p := Profile{
		Workspace: "/w", TempDir: "/t",
		Writable:  []string{"/cache/go", "/w", "/cache/go", "/t"},
		Readable:  []string{"/opt/tool", "/opt/tool"},
		ReadOnly:  []string{"/state/run", "/w/.git"},
		Protected: []string{"/w/.git", "/w/.sentinel"},
		Hidden:    []string{"/home/u/.ssh", "/w/.env", "/home/u/.ssh"},
	}
	helper := filepath.Join(t.TempDir(), "sentinel-helper")
	if err := os.WriteFile(helper, nil, 0o755); err != nil {
		t.Fatal(err)
	}
	s := &Sandbox{p: p, mode: ModeNS, helper: helper}
	sp := s.spec("/w")
	pl := PlanOf(p, nil)
	want := map[string][2][]string{
		"writable":  {sp.Writable, {"/cache/go"}},
		"readable":  {sp.Readable, {"/opt/tool", helper}}, // and the helper bwrap starts
		"readonly":  {sp.ReadOnly, {"/state/run", "/w/.git"}},
		"protected": {sp.Protected, {"/w/.git", "/w/.sentinel"}}, // .git is state and protected: pinned after the workspace
		"hidden":    {sp.Hidden, {"/home/u/.ssh", "/w/.env"}},
	}
	for name, c := range want {
		if !slices.Equal(c[0], c[1]) {
			t.Errorf("spec %s = %q, want %q (the plan: %+v)", name, c[0], c[1], pl)
		}
	}
	// Everything the plan makes read-only is read-only in the spec, and
	// nothing else is.
	var ro []string
	ro = append(append(ro, sp.ReadOnly...), sp.Protected...)
	slices.Sort(ro)
	ro = slices.Compact(ro)
	got := slices.Clone(pl.ReadOnly)
	slices.Sort(got)
	if !slices.Equal(ro, got) {
		t.Errorf("read-only in the spec %q, in the plan %q", ro, got)
	}
}
