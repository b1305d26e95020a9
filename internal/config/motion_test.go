package config

import (
	"path/filepath"
	"testing"
)

// TestReduceMotionIsThePersonsChoice: reduce_motion is read from the user's
// config and layered like theme (a later file's value wins, false included);
// a project file cannot set it for the person without trust (Narrow).
func TestReduceMotionIsThePersonsChoice(t *testing.T) {
	home := t.TempDir()
	t.Setenv("XDG_CONFIG_HOME", home)
	t.Setenv("XDG_STATE_HOME", t.TempDir())
	proj := t.TempDir()
	write(t, filepath.Join(home, "sentinel", "config.toml"), "reduce_motion = true\n")
	c, err := Load(proj)
	if err != nil {
		t.Fatal(err)
	}
	if c.ReduceMotion == nil || !*c.ReduceMotion {
		t.Fatalf("reduce_motion = %v, want the person's true", c.ReduceMotion)
	}
	write(t, filepath.Join(proj, ".sentinel", "config.toml"), "reduce_motion = false\n")
	if c, err = Load(proj); err != nil || c.ReduceMotion == nil || !*c.ReduceMotion {
		t.Fatalf("an untrusted project file turned the person's reduce_motion to %v (%v)", c.ReduceMotion, err)
	}
	var u Config
	f := false
	u.merge(Config{ReduceMotion: &f})
	if u.ReduceMotion == nil || *u.ReduceMotion {
		t.Errorf("a later file's false did not win: %v", u.ReduceMotion)
	}
}
