package inside

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestPlanMounts(t *testing.T) {
	root := t.TempDir()
	ws := filepath.Join(root, "ws")
	for _, d := range []string{ws + "/.git/hooks", root + "/home/.ssh", root + "/state", root + "/priv-tmp", root + "/elsewhere/.aws"} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	os.WriteFile(ws+"/.git/config", nil, 0o644)
	sp := Spec{
		Workspace: ws, TempDir: root + "/priv-tmp", Empty: "/dev/null",
		Readable:  []string{"/tmp", root + "/home"},
		ReadOnly:  []string{root + "/state"},
		Hidden:    []string{root + "/home/.ssh", root + "/elsewhere/.aws"},
		Protected: []string{ws + "/.git/hooks", ws + "/.git/config"},
	}
	plan := planMounts(sp)
	index := map[string]int{}
	byDst := map[string]mountOp{}
	for i, m := range plan {
		if _, dup := index[m.dst]; !dup || m.kind == mountBindRO {
			index[m.dst] = i
			byDst[m.dst] = m
		}
	}
	if m := byDst["/tmp"]; m.src != sp.TempDir || m.kind != mountBindRW {
		t.Errorf("/tmp is %+v: a readable /tmp must not shadow the private temp dir", m)
	}
	if m, ok := byDst[root+"/home/.ssh"]; !ok || m.kind != mountHideDir {
		t.Errorf("a hidden dir under a readable one is not emptied: %+v", m)
	}
	if _, ok := byDst[root+"/elsewhere/.aws"]; ok {
		t.Errorf("a hidden dir that is not visible anyway got a mount")
	}
	if m := byDst[root+"/state"]; m.kind != mountBindRO {
		t.Errorf("Sentinel's state is %+v, want read-only", m)
	}
	if !(index[ws] < index[ws+"/.git"] && index[ws+"/.git"] < index[ws+"/.git/hooks"]) {
		t.Errorf(".git must be pinned (a mount point) between the workspace and .git/hooks: %v", plan)
	}
	for _, p := range sp.Protected {
		if byDst[p].kind != mountBindRO {
			t.Errorf("protected %s is %+v, want read-only", p, byDst[p])
		}
	}
	if m := byDst["/usr"]; m.kind != mountBindRO {
		t.Errorf("/usr is %+v, want read-only", m)
	}
}

// TestPlanMountsBindsANestedReadableOnce: a readable path inside another
// readable one (PATH's ~/.cargo/bin listed before the toolchain root
// ~/.cargo) gets no mount of its own — the parent's recursive bind shows
// it — and a hidden file inside it is still emptied.
func TestPlanMountsBindsANestedReadableOnce(t *testing.T) {
	root := t.TempDir()
	ws, tc := filepath.Join(root, "ws"), filepath.Join(root, "tc")
	for _, d := range []string{ws, tc + "/bin", root + "/priv-tmp"} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	os.WriteFile(tc+"/bin/credentials", []byte("secret"), 0o600)
	sp := Spec{
		Workspace: ws, TempDir: root + "/priv-tmp", Empty: "/dev/null",
		Readable: []string{tc + "/bin", tc},
		Hidden:   []string{tc + "/bin/credentials"},
	}
	var binds []string
	hidden := false
	for _, m := range planMounts(sp) {
		if m.dst == tc || m.dst == tc+"/bin" {
			binds = append(binds, m.dst)
		}
		if m.dst == tc+"/bin/credentials" && m.kind == mountHideFile {
			hidden = true
		}
	}
	if len(binds) != 1 || binds[0] != tc {
		t.Errorf("binds of the toolchain: %v, want only %s", binds, tc)
	}
	if !hidden {
		t.Error("a hidden file inside the nested readable path is not emptied")
	}
}

// TestPlanMountsBindsANestedMountPoint: a readable path inside another
// readable one that is a mount point of its own keeps its own bind, so
// that it is made read-only itself.
func TestPlanMountsBindsANestedMountPoint(t *testing.T) {
	b, err := os.ReadFile("/proc/self/mountinfo")
	if err != nil {
		t.Skip("no /proc/self/mountinfo here")
	}
	var mp string
	for _, l := range strings.Split(string(b), "\n") {
		f := strings.Fields(l)
		if len(f) < 5 || strings.Count(f[4], "/") < 2 || Within(f[4], "/dev") || Within(f[4], "/tmp") || Within(f[4], "/proc") || Within(f[4], "/mnt") {
			continue
		}
		if st, err := os.Stat(f[4]); err == nil && st.IsDir() {
			mp = f[4]
			break
		}
	}
	if mp == "" {
		t.Skip("no nested directory mount point on this machine")
	}
	root := t.TempDir()
	ws := filepath.Join(root, "ws")
	os.MkdirAll(ws, 0o755)
	sp := Spec{Workspace: ws, TempDir: root, Empty: "/dev/null", Readable: []string{mp, filepath.Dir(mp)}}
	for _, m := range planMounts(sp) {
		if m.dst == mp && m.kind == mountBindRO {
			return
		}
	}
	t.Fatalf("the mount point %s inside the readable %s got no read-only bind of its own", mp, filepath.Dir(mp))
}

func TestUnescapeMountinfo(t *testing.T) {
	for in, want := range map[string]string{`/a\040b`: "/a b", `/x\134y`: `/x\y`, "/plain": "/plain", `/end\04`: `/end\04`} {
		if got := unescapeMountinfo(in); got != want {
			t.Errorf("unescapeMountinfo(%q) = %q, want %q", in, got, want)
		}
	}
}

// The plan splices /etc only for a place the host lacks: a tmpfs with the
// host's entries bound one by one, the place bound in it, and the tmpfs
// made read-only after.
func TestPlanSplicesForAPlace(t *testing.T) {
	src := filepath.Join(t.TempDir(), "p.json")
	mustWrite(t, src, "{}")
	ws := t.TempDir()
	plan := planMounts(Spec{Workspace: ws, TempDir: t.TempDir(), Empty: "/dev/null",
		Places: []Place{{Path: "/etc/sentinel-place-test/p.json", Source: src}}})
	key := func(dst string, k mountKind) string { return fmt.Sprintf("%s#%d", dst, k) }
	at := map[string]int{}
	for i, m := range plan {
		at[key(m.dst, m.kind)] = i
	}
	tmpfs, okT := at[key("/etc", mountTmpfs)]
	passwd, okP := at[key("/etc/passwd", mountBindRO)]
	place, okL := at[key("/etc/sentinel-place-test/p.json", mountBindRO)]
	ro, okR := at[key("/etc", mountRemountRO)]
	if !okT || !okP || !okL || !okR || !(tmpfs < passwd && passwd < place && place < ro) {
		t.Errorf("want tmpfs /etc < bind /etc/passwd < place < remount /etc read-only; plan %+v", plan)
	}
	if _, whole := at[key("/etc", mountBindRO)]; whole {
		t.Errorf("/etc is still bound whole: the place's directory could not be made")
	}
	plain := planMounts(Spec{Workspace: ws, TempDir: t.TempDir(), Empty: "/dev/null"})
	for _, m := range plain {
		if m.kind == mountTmpfs || m.kind == mountRemountRO {
			t.Errorf("a profile without places splices %s", m.dst)
		}
	}
}

// A relative path in a spec is never a mount: "." bound before the system
// locations made bwrap fail to make /usr in the read-only root.
func TestPlanMountsSkipsRelativePaths(t *testing.T) {
	ws := t.TempDir()
	t.Chdir(ws)
	plan := planMounts(Spec{Workspace: ws, TempDir: t.TempDir(), Empty: "/dev/null", Readable: []string{".", "sub/.."}})
	for _, m := range plan {
		if (m.src != "" && m.kind != mountSymlink && !filepath.IsAbs(m.src)) || !filepath.IsAbs(m.dst) {
			t.Errorf("a relative path became a mount: %+v", m)
		}
	}
}
