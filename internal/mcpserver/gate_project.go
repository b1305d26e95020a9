package mcpserver

import (
	"github.com/sentinelhq/sentinel/internal/config"
	"github.com/sentinelhq/sentinel/policy"
)

// The exec gate decides through the same chain as a run: the built-in
// rules, the person's policy.toml and the project's .sentinel/policy.toml
// (policy.RuleFiles), then the remembered templates (the person's and the
// project's). A project's files are the person's only once the person
// trusted their exact bytes (sentinel config trust): the MCP client can
// be steered by anything it read, and nothing else tells the person's
// file from one the place shipped. An untrusted file is left out with
// one line saying so.

// trustedStateFile is project's .sentinel/<name> when the gate may use it
// ("" when it may not) and, when it may not, the line that says so: the
// runs' gate (config.PlaceStateFile) without the repository's pass, since
// nothing here checked that the project does not commit its .sentinel/. A
// missing file is nothing to use.
func trustedStateFile(project, name string) (path, warning string) {
	if project == "" {
		return "", ""
	}
	path, warning = config.PlaceStateFile(project, false, name)
	if warning != "" {
		return "", "sentinel mcp: " + warning
	}
	if !present(path) {
		return "", ""
	}
	return path, ""
}

// gateRuleFiles is policy.RuleFiles(project) with the project's file only
// when trusted, and the warnings for what was left out.
func gateRuleFiles(project string) (files []string, warnings []string) {
	files = policy.RuleFiles(project, func(string) string {
		f, warn := trustedStateFile(project, "policy.toml")
		if warn != "" {
			warnings = append(warnings, warn)
		}
		return f
	})
	return files, warnings
}
