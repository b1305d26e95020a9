package runner

import (
	"os"
	"strings"

	"github.com/sentinelhq/sentinel/sandbox"
)

// personIdentityEnv makes a landing commit the person's: their user.name
// and user.email as their own git sees them in the project. Empty when they
// have none, and the hardened config's Sentinel identity stays.
func personIdentityEnv(root string) []string {
	return sandbox.GitIdentityEnv(root)
}

// coAuthors names the known coders for the Co-authored-by trailer; any
// other coder is credited under its own name at Sentinel's address.
var coAuthors = map[string]string{
	"claude":   "Claude <noreply@anthropic.com>",
	"codex":    "Codex <noreply@openai.com>",
	"gemini":   "Gemini CLI <gemini-cli@google.com>",
	"opencode": "opencode <noreply@opencode.ai>",
}

func coAuthor(coder string) string {
	if a, ok := coAuthors[coder]; ok {
		return a
	}
	name := strings.Map(func(r rune) rune {
		if r == '<' || r == '>' || r == '\n' {
			return -1
		}
		return r
	}, coder)
	if name == "" {
		name = "coder"
	}
	return name + " (via Sentinel) <sentinel@localhost>"
}

// sandboxView is the brief of what the coder's sandbox shows of the
// person's setup, for the run's sandbox line.
func sandboxView() string {
	home, _ := os.UserHomeDir()
	return sandbox.DetectToolchains(home, os.Getenv).Brief()
}
