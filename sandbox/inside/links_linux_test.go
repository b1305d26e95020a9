package inside

import (
	"os"
	"path/filepath"
	"testing"
)

// A link is made where nothing shows it; never in the workspace or a
// directory shown at its own path (that would write to the host), nor in
// the system locations or /proc.
func TestPlanMountsMakesLinksOnlyWhereNothingShowsThem(t *testing.T) {
	root := t.TempDir()
	ws, shown, real := filepath.Join(root, "ws"), filepath.Join(root, "shown"), filepath.Join(root, "real")
	for _, d := range []string{ws, shown, real} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	sp := Spec{
		Workspace: ws, TempDir: filepath.Join(root, "tmp"), Empty: "/dev/null",
		Readable: []string{shown, real},
		Links: []Link{
			{Path: filepath.Join(root, "home", ".cargo"), Target: real},
			{Path: filepath.Join(ws, "link"), Target: real},
			{Path: filepath.Join(shown, "link"), Target: real},
			{Path: "/usr/local/link", Target: real},
			{Path: "/proc/link", Target: real},
			{Path: "/dev/link", Target: real},
			{Path: root, Target: real}, // a mount lies below it
			{Path: filepath.Join(root, "placed"), Target: real},
		},
		Places: []Place{{Path: filepath.Join(root, "placed", "f"), Source: "/etc/hostname"}},
	}
	made := map[string]string{}
	for _, m := range planMounts(sp) {
		if m.kind == mountSymlink {
			made[m.dst] = m.src
		}
	}
	if made[filepath.Join(root, "home", ".cargo")] != real {
		t.Errorf("the home's link is not made: %v", made)
	}
	for _, l := range sp.Links[1:] {
		if _, ok := made[l.Path]; ok {
			t.Errorf("link %s is made, want it left out", l.Path)
		}
	}
}
