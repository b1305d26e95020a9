package helperbin

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// fakeHelper writes a sentinel-helper beside a fake sentinel in a temp dir
// that prints stamp, with mode perm, and returns the fake sentinel's path.
func fakeHelper(t *testing.T, stamp string, perm os.FileMode) string {
	t.Helper()
	dir := t.TempDir()
	exe := filepath.Join(dir, "sentinel")
	if err := os.WriteFile(exe, []byte("#!/bin/sh\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	if stamp != "" {
		script := "#!/bin/sh\n[ \"$1\" = " + StampArg + " ] && echo '" + stamp + "'\n"
		if err := os.WriteFile(filepath.Join(dir, Name), []byte(script), perm); err != nil {
			t.Fatal(err)
		}
	}
	return exe
}

func TestChooseUsesTheHelperOnlyWhenItsStampMatches(t *testing.T) {
	want := Stamp()
	for _, tc := range []struct {
		name  string
		stamp string
		perm  os.FileMode
		fast  bool
		why   string
	}{
		{"same build", want, 0o755, true, ""},
		{"absent", "", 0, false, "no " + Name + " beside"},
		{"not executable", want, 0o644, false, "is not an executable file"},
		// A helper left over from another version may speak another hook
		// protocol: it must never answer this build's hooks.
		{"another build", "sentinel-helper-protocol/0 go1.1", 0o755, false, "is from another build"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			exe := fakeHelper(t, tc.stamp, tc.perm)
			c := choose(exe, want)
			if c.Fast != tc.fast {
				t.Fatalf("Fast = %v (%+v), want %v", c.Fast, c, tc.fast)
			}
			if tc.fast && c.Path != filepath.Join(filepath.Dir(exe), Name) {
				t.Fatalf("Path = %s, want the helper beside %s", c.Path, exe)
			}
			if !tc.fast && (c.Path != exe || !strings.Contains(c.Why, tc.why)) {
				t.Fatalf("fallback = %+v, want Path %s and a reason saying %q", c, exe, tc.why)
			}
		})
	}
}

func TestStampNamesTheProtocol(t *testing.T) {
	if s := Stamp(); !strings.HasPrefix(s, "sentinel-helper-protocol/"+protocol) {
		t.Fatalf("Stamp() = %q", s)
	}
}
