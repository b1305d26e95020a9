package mcpserver

import (
	"fmt"
	"strconv"

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
// ("" when it may not) and, when it may not, the line that says so. A
// missing file is nothing to use.
func trustedStateFile(project, name string) (path, warning string) {
	if project == "" {
		return "", ""
	}
	path = config.StateFilePath(project, name)
	sum, present, err := config.HashFile(path)
	switch {
	case err != nil:
		return "", fmt.Sprintf("sentinel mcp: %s cannot be read (%v): deciding without it", path, err)
	case !present:
		return "", ""
	case config.FileTrusted(project, name, sum):
		return path, ""
	}
	return "", fmt.Sprintf("sentinel mcp: %s is not trusted: deciding without it; check the file, then trust it with: sentinel config trust --project %s",
		path, strconv.Quote(project))
}

// gateRuleFiles is policy.RuleFiles(project) with the project's file only
// when trusted, and the warnings for what was left out.
func gateRuleFiles(project string) (files []string, warnings []string) {
	projectFile := config.StateFilePath(project, "policy.toml")
	trusted, warn := trustedStateFile(project, "policy.toml")
	for _, f := range policy.RuleFiles(project) {
		if project != "" && f == projectFile && f != trusted {
			continue
		}
		files = append(files, f)
	}
	if warn != "" {
		warnings = append(warnings, warn)
	}
	return files, warnings
}
