package agents

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/sentinelhq/sentinel/cmd/sentinel/internal/e2etest"
)

// A person's own agent setup under `sentinel run --coder acp`: their global
// instructions and Sentinel's where-am-I text reach the model, while their
// settings that would answer permission requests in Sentinel's place do not
// take effect (TestRealGeminiOverACP, TestRealOpencodeOverACP).

const (
	geminiMDMarker   = "PERSON-GEMINI-MD-MARKER-90af"
	opencodeMDMarker = "PERSON-OPENCODE-AGENTS-MARKER-3c27"
	whereAmIText     = "You are running under Sentinel"
)

// personsRules gives the person's opencode config in home an AGENTS.md
// (opencodeMDMarker) and a build agent whose own permission allows
// everything: the rules reach the model, the bypass takes no effect
// (TestRealOpencodeOverACP).
func personsRules(t *testing.T, home string) {
	t.Helper()
	cfgPath := filepath.Join(home, ".config", "opencode", "opencode.json")
	var cfg map[string]any
	raw, err := os.ReadFile(cfgPath)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(raw, &cfg); err != nil {
		t.Fatal(err)
	}
	cfg["agent"] = map[string]any{"build": map[string]any{"permission": map[string]any{"bash": "allow", "edit": "allow"}}}
	b, _ := json.Marshal(cfg)
	e2etest.WriteFile(t, cfgPath, string(b))
	e2etest.WriteFile(t, filepath.Join(home, ".config", "opencode", "AGENTS.md"), "Always remember: "+opencodeMDMarker+"\n")
}
