package sandbox

import (
	"crypto/sha256"
	"encoding/hex"
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
// XDG_CONFIG_HOME, the directory go runs in, and the go.mod and go.work
// files from there up (one may switch toolchains).

// goEnvCache holds go's answers per directory go ran in: a person working
// in two projects in turn would otherwise have go asked at every switch.
var goEnvCache = userstate.DirCache{File: "goenv-cache.json", Purpose: "sandbox go env cache v2", Entries: 32}

// goEnvKey names one question to go: the keys asked and what go reads.
func goEnvKey(goBin string, getenv func(string) string, ask []string) string {
	h := sha256.New()
	fmt.Fprintf(h, "bin %s\n", goBin)
	userstate.Stamp(h, goBin)
	if r, err := filepath.EvalSymlinks(goBin); err == nil {
		userstate.Stamp(h, r)
		userstate.Stamp(h, filepath.Join(filepath.Dir(filepath.Dir(r)), "go.env"))
	}
	envFile := getenv("GOENV")
	if envFile == "" {
		if cfg := getenv("XDG_CONFIG_HOME"); cfg != "" {
			envFile = filepath.Join(cfg, "go", "env")
		} else {
			envFile = filepath.Join(getenv("HOME"), ".config", "go", "env")
		}
	}
	userstate.Stamp(h, envFile)
	wd, _ := os.Getwd()
	fmt.Fprintf(h, "wd %s\n", wd)
	// The go.mod or go.work go finds from there (the nearest up the
	// tree) may name another toolchain, which go then runs.
	for d := wd; d != ""; d = filepath.Dir(d) {
		userstate.Stamp(h, filepath.Join(d, "go.mod"))
		userstate.Stamp(h, filepath.Join(d, "go.work"))
		if d == filepath.Dir(d) {
			break
		}
	}
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
	wd, _ := os.Getwd()
	var values map[string]string
	if k, ok := goEnvCache.Get(wd, &values); !ok || k != key {
		return nil, false
	}
	return values, true
}

// keepGoEnv stores go's answer for key (best effort: without it the next
// start asks go again).
func keepGoEnv(key string, values map[string]string) {
	wd, _ := os.Getwd()
	goEnvCache.Put(wd, key, values)
}
