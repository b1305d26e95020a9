package main

import (
	"runtime/debug"
	"testing"
)

// A go install build reports its module version; a checkout build its
// commit; a stamped one what was stamped.
func TestVersionFromBuildInfo(t *testing.T) {
	rev := []debug.BuildSetting{{Key: "vcs.revision", Value: "d1f068c0123456789abcdef"}}
	dirty := append(append([]debug.BuildSetting{}, rev...), debug.BuildSetting{Key: "vcs.modified", Value: "true"})
	cases := []struct {
		name, stamped string
		bi            *debug.BuildInfo
		want          string
	}{
		{"go install at a tag", "dev", &debug.BuildInfo{Main: debug.Module{Version: "v1.4.0"}}, "v1.4.0"},
		{"go install at a commit", "dev", &debug.BuildInfo{Main: debug.Module{Version: "v0.0.0-20261205101500-d1f068c01234"}}, "v0.0.0-20261205101500-d1f068c01234"},
		{"checkout build", "dev", &debug.BuildInfo{Main: debug.Module{Version: "(devel)"}, Settings: rev}, "dev+d1f068c01234"},
		{"checkout build with changes", "dev", &debug.BuildInfo{Main: debug.Module{Version: "(devel)"}, Settings: dirty}, "dev+d1f068c01234+dirty"},
		{"nothing known", "dev", &debug.BuildInfo{Main: debug.Module{Version: "(devel)"}}, "dev"},
		{"no build info", "dev", nil, "dev"},
		{"stamped", "v2.0.0", &debug.BuildInfo{Main: debug.Module{Version: "v1.4.0"}, Settings: rev}, "v2.0.0"},
	}
	for _, c := range cases {
		if got := versionOf(c.stamped, c.bi); got != c.want {
			t.Errorf("%s: %q, want %q", c.name, got, c.want)
		}
	}
}
