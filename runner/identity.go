package runner

import (
	"os"

	"github.com/sentinelhq/sentinel/runner/agents"
	"github.com/sentinelhq/sentinel/sandbox"
)

// personIdentityEnv makes a landing commit the person's: their user.name
// and user.email as their own git sees them in the project. Empty when they
// have none, and the hardened config's Sentinel identity stays.
func personIdentityEnv(root string) []string {
	return sandbox.GitIdentityEnv(root)
}

// coAuthor credits coder in the Co-authored-by trailer: a known agent
// under its own name (runner/agents), any other coder under its name at
// Sentinel's address.
func coAuthor(coder string) string { return agents.CoAuthor(coder) }

// sandboxView is the brief of what the coder's sandbox shows of the
// person's setup, for the run's sandbox line.
func sandboxView() string {
	home, _ := os.UserHomeDir()
	return sandbox.DetectToolchains(home, os.Getenv).Brief()
}
