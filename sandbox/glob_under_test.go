package sandbox

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// globUnder finds what filepath.Glob finds for rootSecrets' patterns, in a
// tree with the shapes that matter: nested matches, a file where a
// directory is expected, a link to a directory, a link that leads nowhere,
// names Glob treats specially.
func TestGlobUnderFindsWhatGlobFinds(t *testing.T) {
	root := t.TempDir()
	mk := func(rel string) {
		p := filepath.Join(root, rel)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte("x"), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	for _, rel := range []string{"credentials", "etc/npmrc", "a/etc/npmrc", "b/etc/other", "c/etc", "d/e/etc/npmrc",
		"versions/node/v20/etc/npmrc", "versions/node/v18/etc/npmrc", "versions/node/v16/bin/node", ".hidden/etc/npmrc", "[x]/etc/npmrc"} {
		mk(rel)
	}
	if err := os.Symlink(filepath.Join(root, "a"), filepath.Join(root, "link")); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(root, "dangling", "etc"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(root, "nowhere"), filepath.Join(root, "dangling", "etc", "npmrc")); err != nil {
		t.Fatal(err)
	}
	for _, pattern := range append(slices.Clone(rootSecrets), "*/*/etc/npmrc", "*", "versions/*/*/etc/npmrc", "nope/*", "credentials/x") {
		want, _ := filepath.Glob(filepath.Join(root, pattern))
		got := globUnder(root, pattern)
		if !slices.Equal(got, want) {
			t.Errorf("%s: globUnder %q, filepath.Glob %q", pattern, got, want)
		}
	}
	if got := globUnder(filepath.Join(root, "missing"), "*/etc/npmrc"); got != nil {
		t.Errorf("under a missing root: %q", got)
	}
}
