package supervisor

import (
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sentinelhq/sentinel/cmd/sentinel/internal/e2etest"
)

// opencode (over ACP, the way `sentinel run` drives it) is checked before
// the run as claude and codex are (33.3): pointed at a dead endpoint — by
// ANTHROPIC_BASE_URL, or by the baseURL of the person's own provider in
// their opencode config — without a key for its model's provider, or with
// no model named (its endpoint then unknowable), the
// run is refused with one line naming the fix, exit 1, no run left for
// `sentinel runs` (no recovery entry), and the opencode here (a stand-in
// that leaves a mark if started) never runs on the host.
func TestRunRefusesOpencodeWhoseEndpointIsDead(t *testing.T) {
	t.Parallel()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	dead := "http://" + l.Addr().String() + "/v1"
	l.Close()
	for _, tc := range []struct {
		name   string
		args   []string // opencode's, after the program
		env    []string
		config string // the person's opencode.json
		want   string
	}{
		{name: "ANTHROPIC_BASE_URL dead", args: []string{"acp", "-m", "anthropic/claude-x"},
			env:  []string{"ANTHROPIC_API_KEY=sk-test-fake", "ANTHROPIC_BASE_URL=" + dead},
			want: "coder opencode: its model endpoint " + dead + " is not reachable: connection refused (start it, or point ANTHROPIC_BASE_URL at one that answers)"},
		{name: "the person's provider dead", args: []string{"acp"},
			config: `{"model": "local/qwen", "provider": {"local": {"options": {"baseURL": "` + dead + `"}}}}`,
			want:   "coder opencode: its model endpoint " + dead + " is not reachable: connection refused (start it, or point provider.local.options.baseURL in your opencode config ("},
		{name: "no key", args: []string{"acp", "--model=openai/gpt-x"}, env: []string{"OPENAI_BASE_URL=" + dead},
			want: "coder opencode: no key and no login for provider openai (set OPENAI_API_KEY, or sign in once with: opencode auth login)"},
		// opencode's own pick of a model comes from its model list, fetched
		// at start: not knowable before the run, so a model is asked for
		// (a run started blind failed after 100 s, leaving a run behind).
		{name: "no model named", args: []string{"acp"}, env: []string{"ANTHROPIC_API_KEY=sk-test-fake"},
			want: "coder opencode: no model named, so its endpoint cannot be checked before the run: name one (opencode acp -m provider/model"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := e2etest.ScratchRepo(t)
			home := t.TempDir()
			bin := filepath.Join(home, "bin")
			marker := filepath.Join(home, "opencode-ran")
			e2etest.WriteFile(t, filepath.Join(bin, "opencode"), "#!/bin/sh\ntouch "+marker+"\n")
			if err := os.Chmod(filepath.Join(bin, "opencode"), 0o755); err != nil {
				t.Fatal(err)
			}
			cfgHome := filepath.Join(home, "config")
			if tc.config != "" {
				e2etest.WriteFile(t, filepath.Join(cfgHome, "opencode", "opencode.json"), tc.config)
			}
			env := append([]string{"HOME=" + home, "PATH=" + bin + string(os.PathListSeparator) + os.Getenv("PATH"),
				"XDG_CONFIG_HOME=" + cfgHome, "XDG_DATA_HOME=", "OPENCODE_CONFIG=", "ANTHROPIC_BASE_URL=", "OPENAI_BASE_URL=",
				"ANTHROPIC_API_KEY=", "OPENAI_API_KEY=", "OPENROUTER_API_KEY="}, tc.env...)
			res := runBounded(t, dir, env, append([]string{"run", "--plain", "--coder", "acp", "write a.txt", "--", "opencode"}, tc.args...)...)
			lines := strings.Split(strings.TrimSpace(res.Stderr), "\n")
			progressOnly := true
			for _, l := range lines[:len(lines)-1] {
				progressOnly = progressOnly && strings.HasPrefix(l, "sentinel: preflight: ")
			}
			if res.Code != 1 || !strings.HasPrefix(lines[len(lines)-1], "sentinel: "+tc.want) || !progressOnly {
				t.Fatalf("exit %d, want 1 and the one line %q\nstderr: %s\nstdout: %s", res.Code, tc.want, res.Stderr, res.Stdout)
			}
			if runs := runBounded(t, dir, env, "runs", "--json"); runs.Code != 0 || strings.TrimSpace(runs.Stdout) != "[]" {
				t.Fatalf("sentinel runs after a run that could not start: exit %d\n%s%s", runs.Code, runs.Stdout, runs.Stderr)
			}
			if _, err := os.Stat(marker); err == nil {
				t.Fatal("the preflight ran opencode on the host")
			}
		})
	}
}
