package e2etest

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
)

// Two test processes, or two tests with fresh state dirs, get the same
// record key and the same seed root: the Go build cache seed is named and
// signed by the key, so a seed one of them builds is found and trusted by
// the other instead of being built again.
func TestSharedSeedEnvSharesTheKeyAndTheSeedRoot(t *testing.T) {
	envOf := func(kvs []string) map[string]string {
		m := map[string]string{}
		for _, kv := range kvs {
			k, v, _ := bytes.Cut([]byte(kv), []byte("="))
			m[string(k)] = string(v)
		}
		return m
	}
	a, b := envOf(sharedSeedDirs(t)), envOf(sharedSeedDirs(t))
	if a["XDG_STATE_HOME"] == b["XDG_STATE_HOME"] || a["XDG_CACHE_HOME"] == b["XDG_CACHE_HOME"] {
		t.Fatalf("the state and cache dirs are not fresh: %v %v", a, b)
	}
	procDir := t.TempDir()
	if err := shareState(procDir); err != nil && os.Getenv("XDG_STATE_HOME") == "" {
		t.Fatal(err)
	}
	keys := []string{filepath.Join(a["XDG_STATE_HOME"], "sentinel", "record.key"), filepath.Join(b["XDG_STATE_HOME"], "sentinel", "record.key")}
	if os.Getenv("XDG_STATE_HOME") == "" {
		keys = append(keys, filepath.Join(procDir, "state", "sentinel", "record.key"))
	}
	var first []byte
	for _, k := range keys {
		got, err := os.ReadFile(k)
		if err != nil {
			t.Fatal(err)
		}
		if len(got) != 64 {
			t.Fatalf("%s holds %d bytes, not a key's 64 hex digits", k, len(got))
		}
		if first == nil {
			first = got
		} else if !bytes.Equal(got, first) {
			t.Fatalf("%s holds another key than %s: each would build and sign its own seed", k, keys[0])
		}
	}
	ra, err := filepath.EvalSymlinks(filepath.Join(a["XDG_CACHE_HOME"], "sentinel", "verify-go-seed"))
	if err != nil {
		t.Fatal(err)
	}
	rb, err := filepath.EvalSymlinks(filepath.Join(b["XDG_CACHE_HOME"], "sentinel", "verify-go-seed"))
	if err != nil {
		t.Fatal(err)
	}
	if ra != rb {
		t.Fatalf("the seed roots differ: %s and %s", ra, rb)
	}
}
