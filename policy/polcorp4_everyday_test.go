package policy

import "testing"

// TestCMakePresetsAreTheProjectsBuild: `cmake --preset NAME` configures or
// builds with a configuration the project's own CMakePresets.json names,
// the form C/C++ CLAUDE.md files give (hugo-bluecorn/taskflow-cpp-template):
// it is the plain build, allowed inside the sandbox. A preset name that is
// not a plain token, or a preset with a compiler launcher, still asks.
func TestCMakePresetsAreTheProjectsBuild(t *testing.T) {
	ctx := testEnv(t)
	ctx.Sandboxed = true
	e := Default()
	for _, l := range []string{
		"cmake --preset default",
		"cmake --preset=release",
		"cmake --build --preset release",
		"cmake --preset tdd-tsan && cmake --build build-tdd-tsan",
		"cmake --list-presets",
	} {
		if v := e.Check(Query{Kind: KindShell, Command: l, Context: ctx}); v.Decision != Allow {
			t.Errorf("%q: %s by %s (%s), want allow", l, v.Decision, v.Rule, v.Reason)
		}
	}
	for _, l := range []string{
		"cmake --preset \"$(id)\"",
		"cmake --preset x -DCMAKE_CXX_COMPILER_LAUNCHER=./w.sh",
	} {
		if v := e.Check(Query{Kind: KindShell, Command: l, Context: ctx}); v.Decision == Allow {
			t.Errorf("%q: allowed by %s, want ask", l, v.Rule)
		}
	}
}
