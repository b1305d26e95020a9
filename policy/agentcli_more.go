package policy

import "strings"

// The other coding agents' command lines (polcorp11: opencode run
// --dangerously-skip-permissions asked as an unknown program, not denied as
// claude's same flag is). Each is judged as agentcli.go judges claude,
// codex, gemini and aider: started with the flag that turns its approvals
// or sandbox off it is denied, otherwise it asks. A flag spelled
// --dangerously-… on any agent turns something off by its own name.

// otherAgentCLIs maps each further agent to its own bypass flags, beside
// the --dangerously-… prefix every one of them is judged by.
var otherAgentCLIs = lazy[map[string][]string]{build: func() map[string][]string {
	return map[string][]string{
		"opencode":     {"--yolo"},
		"cursor-agent": {"--force", "-f", "--yolo"},
		"qwen":         {"--yolo", "-y"},
		"copilot":      {"--allow-all-tools", "--allow-all-paths", "--allow-all", "--yolo"},
		"amp":          {"--yolo"},
		"crush":        {"--yolo", "-y"},
		"goose":        {"--yolo"},
		"droid":        {"--skip-permissions-unsafe"},
		"auggie":       {"--yolo"},
		"kilocode":     {"--yolo", "--auto"},
		"cline":        {"--yolo"},
		"kiro-cli":     {"--trust-all-tools"},
		"q":            {"--trust-all-tools"},
	}
}}

// otherAgentBypass reports whether the option name (its value val) turns
// off the approvals or sandbox of prog, one of otherAgentCLIs.
func otherAgentBypass(prog, name, val string) bool {
	flags, ok := otherAgentCLIs.get()[prog]
	if !ok {
		return false
	}
	if strings.HasPrefix(name, "--dangerously-") {
		return true
	}
	if name == "--approval-mode" && val == "yolo" {
		return true // qwen, as gemini
	}
	for _, f := range flags {
		if name == f {
			return true
		}
	}
	return false
}
