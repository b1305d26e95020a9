package sandbox

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// symlinkedHome is a home whose toolchains live elsewhere, as dotfile
// managers and shared disks leave them: ~/.cargo is a link to a link to
// the real directory (holding bin/cargo, a script), and ~/tools is a link
// to a directory holding go/bin/gotool. PATH names the home's paths.
func symlinkedHome(t *testing.T, root string) (home string) {
	t.Helper()
	home = filepath.Join(root, "home")
	data := filepath.Join(root, "data")
	exe := func(path, body string) {
		mustWrite(t, path, body)
		if err := os.Chmod(path, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	exe(filepath.Join(data, "cargo-real", "bin", "cargo"), "#!/bin/sh\necho cargo-through-link\n")
	exe(filepath.Join(data, "tools", "go", "bin", "gotool"), "#!/bin/sh\necho gotool-through-parent-link\n")
	mustWrite(t, filepath.Join(data, "cargo-real", "credentials.toml"), "linked-secret-marker")
	if err := os.MkdirAll(home, 0o755); err != nil {
		t.Fatal(err)
	}
	for link, target := range map[string]string{
		filepath.Join(data, "cargo-link"): "cargo-real", // relative, and a link to a link
		filepath.Join(home, ".cargo"):     filepath.Join(data, "cargo-link"),
		filepath.Join(home, "tools"):      filepath.Join(data, "tools"),
	} {
		if err := os.Symlink(target, link); err != nil {
			t.Fatal(err)
		}
	}
	t.Setenv("HOME", home)
	t.Setenv("XDG_CACHE_HOME", filepath.Join(root, "cache"))
	t.Setenv("PATH", strings.Join([]string{filepath.Join(home, ".cargo", "bin"), filepath.Join(home, "tools", "go", "bin"), os.Getenv("PATH")}, ":"))
	return home
}

// A toolchain reached through a symlink in the home runs inside by the
// person's path: each link on the way (a link to a link, a link in a
// parent directory) is made again inside, on both backends.
func TestSymlinkedToolchainsRunInside(t *testing.T) {
	root := t.TempDir()
	home := symlinkedHome(t, root)
	ws := filepath.Join(root, "ws")
	if err := os.MkdirAll(ws, 0o755); err != nil {
		t.Fatal(err)
	}
	script := `cargo; gotool; ls ` + home + `/.cargo/bin; readlink ` + home + `/.cargo; cat ` + home + `/.cargo/credentials.toml 2>/dev/null; true`
	for _, mode := range modes(t) {
		for _, extra := range [][]string{nil, {"--agent", "codex"}} {
			t.Run(string(mode)+strings.Join(extra, ""), func(t *testing.T) {
				args := append(append([]string{"sandbox", "run", "--sandbox", string(mode), "--workspace", ws}, extra...), "--", "sh", "-c", script)
				out, errOut, code := sentinel(t, "", args...)
				for _, want := range []string{"cargo-through-link", "gotool-through-parent-link", "\ncargo\n", filepath.Join(root, "data", "cargo-link")} {
					if !strings.Contains(out, want) {
						t.Errorf("%q missing inside (exit %d)\nstdout %s\nstderr %s", want, code, out, errOut)
					}
				}
				if strings.Contains(out, "linked-secret-marker") {
					t.Errorf("the credentials file behind the link was readable inside:\n%s", out)
				}
			})
		}
	}
	if got := strings.Join(DetectToolchains(home, os.Getenv).Names(), " "); !strings.Contains(got, "cargo") {
		t.Errorf("DetectToolchains names %q, want cargo among them", got)
	}
}

// linksOn lists every link the kernel follows, as it is on disk.
func TestLinksOnListsEveryLevel(t *testing.T) {
	root := t.TempDir()
	home := symlinkedHome(t, root)
	got := linksOn(filepath.Join(home, ".cargo", "bin"))
	if len(got) != 2 || got[0].Path != filepath.Join(home, ".cargo") || got[1].Target != "cargo-real" {
		t.Errorf("linksOn(~/.cargo/bin) = %+v, want ~/.cargo and data/cargo-link", got)
	}
	if got := linksOn(filepath.Join(home, "tools", "go")); len(got) != 1 || got[0].Path != filepath.Join(home, "tools") {
		t.Errorf("linksOn(~/tools/go) = %+v, want ~/tools", got)
	}
}
