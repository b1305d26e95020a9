package sandbox

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/sentinelhq/sentinel/internal/userstate"
)

// `go env` takes tens of milliseconds, paid by every `sentinel sandbox run`
// (DetectToolchains asks it where the module cache is). Its answer is kept
// in the user's state directory, which no coder can write, signed with the
// user's record key, and used only while everything go itself reads to
// answer is unchanged: the go binary, its GOROOT's go.env, the person's
// `go env -w` file, the environment's GO* variables, HOME,
// XDG_CONFIG_HOME and the directory go runs in (a go.mod there may switch
// toolchains).

const goEnvCachePurpose = "sandbox go env cache v1"

type goEnvCacheFile struct {
	Key    string            `json:"key"`
	Values map[string]string `json:"values"`
	Sig    string            `json:"sig"`
}

// goEnvKey names one question to go: the keys asked and what go reads.
func goEnvKey(goBin string, getenv func(string) string, ask []string) string {
	h := sha256.New()
	fmt.Fprintf(h, "bin %s\n", goBin)
	stampFile(h, goBin)
	if r, err := filepath.EvalSymlinks(goBin); err == nil {
		stampFile(h, r)
		stampFile(h, filepath.Join(filepath.Dir(filepath.Dir(r)), "go.env"))
	}
	envFile := getenv("GOENV")
	if envFile == "" {
		if cfg := getenv("XDG_CONFIG_HOME"); cfg != "" {
			envFile = filepath.Join(cfg, "go", "env")
		} else {
			envFile = filepath.Join(getenv("HOME"), ".config", "go", "env")
		}
	}
	stampFile(h, envFile)
	wd, _ := os.Getwd()
	fmt.Fprintf(h, "wd %s\n", wd)
	for _, k := range []string{"HOME", "XDG_CONFIG_HOME", "PATH", "GOENV", "GOROOT", "GOPATH", "GOMODCACHE",
		"GOFLAGS", "GOPROXY", "GOSUMDB", "GOTOOLCHAIN", "GOPRIVATE", "GONOPROXY", "GONOSUMDB", "GOINSECURE", "GOWORK", "GO111MODULE"} {
		fmt.Fprintf(h, "env %s=%s\n", k, getenv(k))
	}
	var goVars []string
	for _, kv := range os.Environ() {
		if k, _, _ := strings.Cut(kv, "="); strings.HasPrefix(k, "GO") || strings.HasPrefix(k, "CGO") {
			goVars = append(goVars, k)
		}
	}
	slices.Sort(goVars)
	for _, k := range goVars {
		fmt.Fprintf(h, "env %s=%s\n", k, getenv(k))
	}
	fmt.Fprintf(h, "ask %q\n", ask)
	return hex.EncodeToString(h.Sum(nil))
}

// cachedGoEnv is the kept answer for key, if it is there and signed.
func cachedGoEnv(key string) (map[string]string, bool) {
	p, err := userstate.Path("goenv-cache.json")
	if err != nil {
		return nil, false
	}
	b, err := os.ReadFile(p)
	if err != nil {
		return nil, false
	}
	var f goEnvCacheFile
	if json.Unmarshal(b, &f) != nil || f.Key != key {
		return nil, false
	}
	data, _ := json.Marshal(goEnvCacheFile{Key: f.Key, Values: f.Values})
	if !userstate.Verify(goEnvCachePurpose, data, f.Sig) {
		return nil, false
	}
	return f.Values, true
}

// keepGoEnv stores go's answer for key (best effort: without it the next
// start asks go again).
func keepGoEnv(key string, values map[string]string) {
	data, err := json.Marshal(goEnvCacheFile{Key: key, Values: values})
	if err != nil {
		return
	}
	sig, err := userstate.Sign(goEnvCachePurpose, data)
	if err != nil {
		return
	}
	b, _ := json.Marshal(goEnvCacheFile{Key: key, Values: values, Sig: sig})
	_ = userstate.WriteFile("goenv-cache.json", b) // a cache: a failed write only costs the next start
}
