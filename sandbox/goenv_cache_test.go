package sandbox

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// The kept `go env` answer decides what the sandbox shows (the module
// cache's path joins the readable places): one that Sentinel did not sign
// is never used, and a signed one only for the same question.
func TestGoEnvCacheIgnoresForgedAnswers(t *testing.T) {
	goBin, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go")
	}
	t.Setenv("XDG_STATE_HOME", t.TempDir())
	t.Setenv("GOMODCACHE", "")
	out, err := exec.Command(goBin, "env", "GOMODCACHE").Output()
	if err != nil {
		t.Fatal(err)
	}
	real := strings.TrimSpace(string(out))
	wd, _ := os.Getwd()
	ask := []string{"GOMODCACHE"}
	key := goEnvKey(goBin, os.Getenv, ask)
	cache := filepath.Join(os.Getenv("XDG_STATE_HOME"), "sentinel", "goenv-cache.json")
	os.MkdirAll(filepath.Dir(cache), 0o700)
	for name, sig := range map[string]string{"unsigned": "", "badly signed": strings.Repeat("ab", 32)} {
		b, _ := json.Marshal([]map[string]any{{"dir": wd, "key": key, "value": map[string]string{"GOMODCACHE": "/planted"}, "sig": sig}})
		if err := os.WriteFile(cache, b, 0o600); err != nil {
			t.Fatal(err)
		}
		if got := goEnv(os.Getenv, ask...)["GOMODCACHE"]; got != real {
			t.Fatalf("%s cache: GOMODCACHE %q, want go's own %q", name, got, real)
		}
	}
	// go's answer was kept, signed: it is used for the same question…
	if v, ok := cachedGoEnv(key); !ok || v["GOMODCACHE"] != real {
		t.Fatalf("kept answer %v %v, want %q", v, ok, real)
	}
	// …and kept beside another directory's…
	other := t.TempDir()
	t.Chdir(other)
	if _, ok := cachedGoEnv(goEnvKey(goBin, os.Getenv, ask)); ok {
		t.Fatal("a kept answer was used in another directory")
	}
	if got := goEnv(os.Getenv, ask...)["GOMODCACHE"]; got != real {
		t.Fatalf("in another directory: GOMODCACHE %q, want %q", got, real)
	}
	if _, ok := cachedGoEnv(goEnvKey(goBin, os.Getenv, ask)); !ok {
		t.Fatal("the answer in another directory was not kept")
	}
	// …not once a go.mod there may name another toolchain…
	os.WriteFile(filepath.Join(other, "go.mod"), []byte("module x\n\ngo 1.21\n\ntoolchain go1.21.0\n"), 0o644)
	if _, ok := cachedGoEnv(goEnvKey(goBin, os.Getenv, ask)); ok {
		t.Fatal("a kept answer was used after a go.mod appeared")
	}
	t.Chdir(wd)
	if _, ok := cachedGoEnv(key); !ok {
		t.Fatal("the first directory's answer was lost to the second's")
	}
	// …and not for another question (a changed environment).
	t.Setenv("GOFLAGS", "-mod=mod")
	if _, ok := cachedGoEnv(goEnvKey(goBin, os.Getenv, ask)); ok {
		t.Fatal("a kept answer was used after GOFLAGS changed")
	}
}
