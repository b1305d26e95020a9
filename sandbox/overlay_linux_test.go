package sandbox

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"io/fs"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// overlayLayers makes a lower checkout (with .git hooks and config), an
// empty upper (the workspace) and a work dir.
func overlayLayers(t *testing.T) (lower, upper, work string) {
	t.Helper()
	base := t.TempDir()
	lower, upper, work = filepath.Join(base, "lower"), filepath.Join(base, "ws"), filepath.Join(base, "ws.work")
	mustWrite(t, filepath.Join(lower, "keep.txt"), "kept\n")
	mustWrite(t, filepath.Join(lower, "gone.txt"), "to be deleted\n")
	mustWrite(t, filepath.Join(lower, "mode.sh"), "echo hi\n")
	mustWrite(t, filepath.Join(lower, ".git", "config"), "[core]\n")
	mustWrite(t, filepath.Join(lower, ".git", "hooks", "README"), "hooks\n")
	for _, d := range []string{upper, work} {
		if err := os.Mkdir(d, 0o700); err != nil {
			t.Fatal(err)
		}
	}
	t.Cleanup(func() { chmodDirs(base) })
	return lower, upper, work
}

// treeSum hashes every path, mode and content under dir.
func treeSum(t *testing.T, dir string) string {
	t.Helper()
	h := sha256.New()
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		st, err := os.Lstat(p)
		if err != nil {
			return err
		}
		h.Write([]byte(p + "\x00" + st.Mode().String() + "\x00"))
		if st.Mode().IsRegular() {
			b, _ := os.ReadFile(p)
			h.Write(b)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return hex.EncodeToString(h.Sum(nil))
}

// TestOverlayWorkspace runs a coder's writes in an overlay workspace under
// each backend: they land in the upper dir only (deletions as whiteouts),
// the lower checkout is untouched and unreachable, .git/hooks and
// .git/config stay read-only on the merged view, and a View shows the tree
// the coder left.
func TestOverlayWorkspace(t *testing.T) {
	for _, mode := range modes(t) {
		t.Run(string(mode), func(t *testing.T) {
			overlayOrSkip(t, mode)
			lower, upper, work := overlayLayers(t)
			before := treeSum(t, lower)
			home := t.TempDir()
			p := DefaultProfile(upper, home)
			p.Overlay = &Overlay{Lower: lower, Work: work}
			p.Net = NetNone
			sbx, err := Prepare(p, Options{Mode: mode, Helper: helperBin})
			if err != nil {
				t.Fatal(err)
			}
			defer sbx.Close()
			script := `
echo new > new.txt
echo changed >> keep.txt
rm gone.txt
chmod +x mode.sh
[ "$(cat keep.txt)" = "$(printf 'kept\nchanged')" ] && echo merged-ok
echo evil > .git/hooks/pre-commit 2>/dev/null && echo HOOK-WRITTEN
echo '[core] hooksPath = x' >> .git/config 2>/dev/null && echo CONFIG-WRITTEN
mv .git .git-moved 2>/dev/null && echo GIT-MOVED
ls ` + lower + ` >/dev/null 2>&1 && echo LOWER-VISIBLE
ls /.sentinel-overlay/lower/keep.txt >/dev/null 2>&1 && echo STAGED-LOWER-VISIBLE
ls /.sentinel-overlay/rw/ws.work >/dev/null 2>&1 && echo STAGED-RW-VISIBLE
mknod dev c 1 3 2>/dev/null && echo MKNOD
umount ` + upper + ` 2>/dev/null && echo UNMOUNTED
true`
			cmd, err := sbx.Command(context.Background(), upper, "/bin/sh", "-c", script)
			if err != nil {
				t.Fatal(err)
			}
			out, err := cmd.CombinedOutput()
			if err != nil {
				t.Fatalf("%v\n%s", err, out)
			}
			got := string(out)
			if !strings.Contains(got, "merged-ok") {
				t.Errorf("the coder did not see the merged tree:\n%s", got)
			}
			for _, bad := range []string{"HOOK-WRITTEN", "CONFIG-WRITTEN", "GIT-MOVED", "LOWER-VISIBLE", "STAGED-LOWER-VISIBLE", "STAGED-RW-VISIBLE", "MKNOD", "UNMOUNTED"} {
				if strings.Contains(got, bad) {
					t.Errorf("%s inside the overlay workspace:\n%s", bad, got)
				}
			}
			if after := treeSum(t, lower); after != before {
				t.Errorf("the lower checkout changed")
			}
			if b, err := os.ReadFile(filepath.Join(upper, "new.txt")); err != nil || string(b) != "new\n" {
				t.Errorf("new.txt in the upper dir: %q %v", b, err)
			}
			st, err := os.Lstat(filepath.Join(upper, "gone.txt"))
			if err != nil || st.Mode()&os.ModeCharDevice == 0 || st.Sys().(*syscall.Stat_t).Rdev != 0 {
				t.Errorf("gone.txt is not a whiteout in the upper dir: %v %v", st, err)
			}
			// The view shows what the coder left.
			view := exec.Command("/bin/sh", "-c", "cat keep.txt new.txt; ls; stat -c %a mode.sh")
			view.Dir = upper
			View{Helper: helperBin, Lower: lower, Upper: upper}.Wrap(view)
			vout, err := view.CombinedOutput()
			if err != nil {
				t.Fatalf("view: %v\n%s", err, vout)
			}
			want := "kept\nchanged\nnew\nkeep.txt\nmode.sh\nnew.txt\n711\n"
			if string(vout) != want {
				t.Errorf("view shows %q, want %q", vout, want)
			}
		})
	}
}

// TestOverlayViewReadOnly: the view Sentinel reads through cannot change
// either layer, and what runs in it holds no capability.
func TestOverlayViewReadOnly(t *testing.T) {
	lower, upper, _ := overlayLayers(t)
	mustWrite(t, filepath.Join(upper, "coder.txt"), "x\n")
	before, beforeUp := treeSum(t, lower), treeSum(t, upper)
	view := exec.Command("/bin/sh", "-c", "echo y > coder.txt; echo z > keep.txt; rm -f gone.txt; grep CapEff /proc/self/status")
	view.Dir = upper
	View{Helper: helperBin, Lower: lower, Upper: upper}.Wrap(view)
	out, _ := view.CombinedOutput()
	if !bytes.Contains(out, []byte("CapEff:\t0000000000000000")) {
		t.Errorf("a command in the view holds capabilities:\n%s", out)
	}
	if treeSum(t, lower) != before || treeSum(t, upper) != beforeUp {
		t.Errorf("a layer changed through the view:\n%s", out)
	}
}

// overlayOrSkip skips where OverlayWorks says the mode cannot have an
// overlay workspace, which is then a clone: known for bubblewrap run by an
// unprivileged user (the overlay mount is EPERM after bwrap's --dev here).
func overlayOrSkip(t *testing.T, mode Mode) {
	t.Helper()
	err := OverlayWorks(context.Background(), helperBin, mode, t.TempDir(), t.TempDir())
	if err == nil {
		return
	}
	if mode == ModeBwrap && os.Getuid() != 0 {
		t.Skipf("no overlay workspace under unprivileged bwrap here (runs get a clone): %v", err)
	}
	t.Fatalf("overlay not available under %s: %v", mode, err)
}

// TestOverlayWorkspaceUnprivileged re-runs the overlay tests as the
// unprivileged CI user when the suite runs as root: under bubblewrap an
// unprivileged helper needs the capabilities it is given for the mount.
func TestOverlayWorkspaceUnprivileged(t *testing.T) {
	if os.Getuid() != 0 {
		t.Skip("already unprivileged")
	}
	const name = "sentinel-ci"
	u, err := user.Lookup(name)
	if err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("user %s is missing (CI=true): useradd -m %s", name, name)
		}
		t.Skipf("user %s does not exist", name)
	}
	setpriv, err := exec.LookPath("setpriv")
	if err != nil {
		t.Fatal("setpriv is missing (util-linux)")
	}
	dir, err := os.MkdirTemp("", "sentinel-overlay-bins-")
	if err != nil {
		t.Fatal(err)
	}
	defer os.RemoveAll(dir)
	os.Chmod(dir, 0o755)
	exe, _ := os.Executable()
	testBin, sentinel := filepath.Join(dir, "sandbox.test"), filepath.Join(dir, "sentinel")
	for src, dst := range map[string]string{exe: testBin, helperBin: sentinel} {
		b, err := os.ReadFile(src)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(dst, b, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	cmd := exec.Command(setpriv, "--reuid="+u.Uid, "--regid="+u.Gid, "--init-groups",
		testBin, "-test.run", "^(TestOverlayWorkspace|TestOverlayViewReadOnly)$", "-test.v")
	cmd.Dir = dir
	cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "HOME=" + u.HomeDir, "USER=" + name,
		"SENTINEL_TEST_BIN=" + sentinel, "CI=" + os.Getenv("CI"), "TMPDIR=/tmp"}
	out, err := cmd.CombinedOutput()
	if err != nil || !bytes.Contains(out, []byte("--- PASS: TestOverlayWorkspace ")) || !bytes.Contains(out, []byte("--- PASS: TestOverlayViewReadOnly ")) {
		t.Fatalf("overlay tests as %s failed: %v\n%s", name, err, out)
	}
}
