package shellscope

import (
	"os"
	"path/filepath"
	"runtime"
	"testing"
)

// Every name an agent starts a shell by reaches the wrapper: each real
// file of Shells on this host is covered once, by the wrapper, and its real
// file is shown at RealDir+its path.
func TestPlacesCoverEachRealShellOnce(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("the places are the Linux sandbox's")
	}
	places := Places("/w/sentinel-helper")
	shown := map[string]string{}
	for _, pl := range places {
		if _, dup := shown[pl.Path]; dup {
			t.Errorf("%s is placed twice", pl.Path)
		}
		shown[pl.Path] = pl.Source
	}
	covered := 0
	for _, s := range Shells {
		real, err := filepath.EvalSymlinks(s)
		if err != nil {
			continue // not on this host
		}
		covered++
		if shown[real] != "/w/sentinel-helper" {
			t.Errorf("%s (%s) is shown as %q, not the wrapper", s, real, shown[real])
		}
		if shown[RealDir+real] != real {
			t.Errorf("%s's real file is shown at %s as %q, want %s", s, RealDir+real, shown[RealDir+real], real)
		}
	}
	if covered == 0 {
		t.Skip("no shell of Shells on this host")
	}
	if len(places)%2 != 0 {
		t.Errorf("places %v: each wrapper needs its real shell", places)
	}
	for _, pl := range places {
		if st, err := os.Stat(pl.Source); pl.Source != "/w/sentinel-helper" && (err != nil || !st.Mode().IsRegular()) {
			t.Errorf("place %s: source %s is not a file (%v)", pl.Path, pl.Source, err)
		}
	}
}
