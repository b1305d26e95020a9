package sandbox

import (
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// Sentinel's own cache settings make npm print nothing: a variable npm
// does not know ("npm warn Unknown env config") lands in every npm
// command's output, the model's tool results included. pnpm's store stays
// in one place for every pnpm version.
func TestBuildCacheEnvIsQuietForNpm(t *testing.T) {
	npm, err := exec.LookPath("npm")
	if err != nil {
		t.Skip("npm is not installed")
	}
	root := t.TempDir()
	env := []string{"PATH=" + filepath.Dir(npm) + ":/usr/bin:/bin", "HOME=" + t.TempDir()}
	byEnv := map[string]string{}
	for _, c := range BuildCacheEnv(root) {
		env = append(env, c.Env+"="+c.Dir)
		byEnv[c.Env] = c.Dir
	}
	if byEnv["pnpm_config_store_dir"] != filepath.Join(byEnv["PNPM_HOME"], "store") {
		t.Errorf("pnpm 11's store %q is not pnpm 10's $PNPM_HOME/store (%q)", byEnv["pnpm_config_store_dir"], byEnv["PNPM_HOME"])
	}
	cmd := exec.Command(npm, "config", "get", "cache")
	cmd.Env = env
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("npm config get cache: %v\n%s", err, out)
	}
	if strings.Contains(string(out), "warn") || strings.TrimSpace(string(out)) != byEnv["npm_config_cache"] {
		t.Errorf("npm with Sentinel's cache settings said:\n%s\nwant only %s", out, byEnv["npm_config_cache"])
	}
}
