package claude

import (
	"errors"
	"github.com/sentinelhq/sentinel/runner/coder"
	"os"
	"path/filepath"
	"runtime"
)

// DefaultBaseURL is the Anthropic API, where Claude Code sends its model
// traffic when ANTHROPIC_BASE_URL is unset.
const DefaultBaseURL = "https://api.anthropic.com"

// otherProviders are the variables that send Claude Code to another cloud
// (Bedrock, Vertex, Foundry) with that cloud's own credentials: the
// preflight then checks neither a key nor the Anthropic endpoint.
var otherProviders = []string{"CLAUDE_CODE_USE_BEDROCK", "CLAUDE_CODE_USE_VERTEX", "CLAUDE_CODE_USE_FOUNDRY"}

// keyVars are the variables Claude Code takes a key or token from.
var keyVars = []string{"ANTHROPIC_API_KEY", "ANTHROPIC_AUTH_TOKEN", "CLAUDE_CODE_OAUTH_TOKEN"}

func otherProvider() bool {
	for _, v := range otherProviders {
		if os.Getenv(v) != "" {
			return true
		}
	}
	return false
}

// SignIn is nil when Claude Code will find a key or a sign-in where the run
// gives it one (PassEnv, PrepareConfigDir): a key variable, the person's
// login (.credentials.json in $CLAUDE_CONFIG_DIR or ~/.claude), a key kept
// in their ~/.claude.json, or an apiKeyHelper in their settings. Off Linux
// the login is in the system keychain, which is not looked at: nil.
func (a *Adapter) SignIn() error {
	if otherProvider() || runtime.GOOS != "linux" {
		return nil
	}
	for _, v := range keyVars {
		if os.Getenv(v) != "" {
			return nil
		}
	}
	home, _ := os.UserHomeDir()
	if _, err := os.Stat(filepath.Join(personalDir(home), ".credentials.json")); err == nil {
		return nil
	}
	if cfg, err := readSettings(ConfigFile(home)); err == nil && cfg["primaryApiKey"] != nil {
		return nil
	}
	if s, err := readSettings(filepath.Join(personalDir(home), "settings.json")); err == nil && s["apiKeyHelper"] != nil {
		return nil
	}
	return errors.New("coder claude: no API key and no sign-in (set ANTHROPIC_API_KEY, or sign in once with: claude /login)")
}

// ModelEndpoint is the base URL Claude Code sends its model traffic to and
// the fix when it does not answer; "" when it uses another cloud.
func (a *Adapter) ModelEndpoint() (url, fix string, err error) {
	if otherProvider() {
		return "", "", nil
	}
	if u := os.Getenv("ANTHROPIC_BASE_URL"); u != "" {
		return u, "start it, or point ANTHROPIC_BASE_URL at one that answers", nil
	}
	return DefaultBaseURL, "check this machine's network, or set ANTHROPIC_BASE_URL to an endpoint that answers", nil
}

// ModelProbe is how the preflight tells the Anthropic API at the endpoint
// from a wrong one (an endpoint answering 404 left Claude Code waiting for
// a person, forever under --plain).
func (a *Adapter) ModelProbe() coder.Probe { return coder.AnthropicProbe }
