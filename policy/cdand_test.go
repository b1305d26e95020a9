package policy

import "testing"

// TestAndListRunsWhereCdWent: after `cd DIR &&` the rest of the && list
// runs in DIR only (a failed cd stops the list), so `..` there is the
// workspace; after `;`, `||`, or outside the list the old directory is
// still possible, and a cd that goes back up stays judged.
func TestAndListRunsWhereCdWent(t *testing.T) {
	ctx := testEnv(t)
	e := Default()
	for _, l := range []string{
		"cd build && cat ../README.md",
		"rm -rf build && mkdir build && cd build && cmake .. -DCMAKE_BUILD_TYPE=Debug && cmake --build . && ctest --output-on-failure .",
		"cd src && cd ../build && ls ../src",
	} {
		if v := e.Check(Query{Kind: KindShell, Command: l, Context: ctx}); v.Decision != Allow {
			t.Errorf("%q: %s by %s (%s), want allow", l, v.Decision, v.Rule, v.Reason)
		}
	}
	for _, l := range []string{
		"cd build && cat ../../x",
		"cd build; cat ../README.md",
		"cd build && true; cat ../README.md",
		"cd build || cat ../README.md",
		"cd build && cd .. && cat ../x",
		"cd build && cd $D && cat ../README.md",
		"(cd build && true) && cat ../README.md",
		"cd build && { cd ..; } && cat ../x",
		// a cd in the middle that succeeded before a later one failed
		"cd /etc && cd " + ctx.Workspace + " && true; cat passwd",
	} {
		if v := e.Check(Query{Kind: KindShell, Command: l, Context: ctx}); v.Decision == Allow {
			t.Errorf("%q ALLOWED by %s (%s)", l, v.Rule, v.Reason)
		}
	}
}
