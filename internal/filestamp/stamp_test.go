package filestamp

import (
	"os"
	"path/filepath"
	"runtime"
	"testing"
	"time"
)

// A chmod changes the change time and nothing else a stamp holds, so a
// stamp that did not read the change time would not see it.
func TestStampSeesChmodAndIdentity(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("Windows FileInfo has no inode or change time; Of is never ok there")
	}
	p := filepath.Join(t.TempDir(), "f")
	if err := os.WriteFile(p, []byte("x"), 0o600); err != nil {
		t.Fatal(err)
	}
	fi, err := os.Stat(p)
	if err != nil {
		t.Fatal(err)
	}
	a, ok := Of(fi)
	if !ok {
		t.Fatal("no stamp for a regular file")
	}
	if a.Ino == 0 || a.UID != os.Getuid() || a.Mode&0o777 != 0o600 {
		t.Fatalf("stamp %+v does not describe the file (uid %d, mode 0600)", a, os.Getuid())
	}
	if a.MtimeSec != fi.ModTime().Unix() || a.MtimeNsec != int64(fi.ModTime().Nanosecond()) {
		t.Fatalf("mtime %d.%d, want %v", a.MtimeSec, a.MtimeNsec, fi.ModTime())
	}
	// Push the change time past what the first stamp saw (a chmod sets it to now).
	old := time.Unix(a.CtimeSec, a.CtimeNsec)
	for deadline := time.Now().Add(10 * time.Second); ; {
		if err := os.Chmod(p, 0o640); err != nil {
			t.Fatal(err)
		}
		fi2, err := os.Stat(p)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := Of(fi2)
		if time.Unix(b.CtimeSec, b.CtimeNsec).After(old) {
			if b.Ino != a.Ino || b.Dev != a.Dev {
				t.Fatalf("a chmod changed the inode: %+v -> %+v", a, b)
			}
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("the change time never moved past %v after a chmod: %+v", old, b)
		}
		os.Chmod(p, 0o600)
	}
}
