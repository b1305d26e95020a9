package sandbox

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestProfileNormalize(t *testing.T) {
	ws := t.TempDir()
	link := filepath.Join(t.TempDir(), "ws-link")
	if err := os.Symlink(ws, link); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name    string
		p       Profile
		wantErr string
		check   func(t *testing.T, p Profile)
	}{
		{"no workspace", Profile{}, "no workspace", nil},
		{"relative workspace", Profile{Workspace: "ws"}, "not absolute", nil},
		{"missing workspace", Profile{Workspace: filepath.Join(ws, "nope")}, "is not a directory", nil},
		{"workspace is /", Profile{Workspace: "/"}, "would expose too much", nil},
		{"relative writable", Profile{Workspace: ws, Writable: []string{".claude"}}, "writable path \".claude\" is not absolute", nil},
		{"bad network mode", Profile{Workspace: ws, Net: "wifi"}, "unknown network mode", nil},
		{"bad allowed host", Profile{Workspace: ws, AllowHosts: []string{"http://x/"}}, `allowed host "http://x/"`, nil},
		{"symlinked workspace resolves", Profile{Workspace: link}, "", func(t *testing.T, p Profile) {
			if real, _ := filepath.EvalSymlinks(ws); p.Workspace != real {
				t.Errorf("workspace %s, want %s", p.Workspace, real)
			}
		}},
		{"defaults: proxy network and system secrets hidden", Profile{Workspace: ws}, "", func(t *testing.T, p Profile) {
			if p.Net != NetProxy {
				t.Errorf("net %q, want proxy", p.Net)
			}
			if !strings.Contains(strings.Join(p.Hidden, " "), "/etc/shadow") {
				t.Errorf("hidden %v lacks /etc/shadow", p.Hidden)
			}
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := tt.p.normalize()
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("error %v, want one containing %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			tt.check(t, got)
		})
	}
}

func TestDefaultProfileHidesEveryCredentialLocation(t *testing.T) {
	p := DefaultProfile("/work/ws", "/home/u")
	hidden := strings.Join(p.Hidden, "\n") + "\n"
	for _, c := range []string{".ssh", ".aws", ".azure", ".kube", ".config/gh", ".gnupg", ".password-store",
		".docker", ".netrc", ".git-credentials", ".config/sentinel"} {
		if !strings.Contains(hidden, "/home/u/"+c+"\n") {
			t.Errorf("%s is not hidden", c)
		}
	}
	prot := strings.Join(p.Protected, " ")
	for _, c := range []string{"/work/ws/.git/hooks", "/work/ws/.git/config"} {
		if !strings.Contains(prot, c) {
			t.Errorf("%s is not protected", c)
		}
	}
	if p.Net != NetProxy {
		t.Errorf("net %q, want proxy", p.Net)
	}
}

// A profile path at or above the sandbox's own /dev or /tmp (a config's
// readable = ["/"]) is refused: it would lay the host's over the sandbox's.
func TestProfileRefusesPathsOverPrivateMounts(t *testing.T) {
	ws := t.TempDir()
	for _, c := range []struct {
		readable, writable []string
		bad                bool
	}{
		{readable: []string{"/"}, bad: true},
		{readable: []string{"/dev"}, bad: true},
		{writable: []string{"/tmp"}, bad: true},
		{readable: []string{"/dev/"}, bad: true},
		{readable: []string{"/usr/share"}},
		{writable: []string{ws}},
		{readable: []string{"/develop-not-dev"}},
	} {
		_, err := Profile{Workspace: ws, Readable: c.readable, Writable: c.writable}.normalize()
		if (err != nil) != c.bad {
			t.Errorf("readable %v writable %v: err %v, want refused=%v", c.readable, c.writable, err, c.bad)
		}
		if err != nil && !strings.Contains(err.Error(), "narrower directory") {
			t.Errorf("error does not say the fix: %v", err)
		}
	}
}
