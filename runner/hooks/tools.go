package hooks

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"regexp"
	"strconv"
	"strings"

	"github.com/sentinelhq/sentinel/approvals"
	"github.com/sentinelhq/sentinel/policy"
)

// toolKinds maps the hook agents' tool names (lower case; Claude Code,
// Codex, Gemini CLI and Crush in one table) to request kinds: a payload is
// mapped the same whichever dialect read it. A name not here is kind other,
// which the policy sends to a person.
var toolKinds = map[string]policy.Kind{
	// shell
	"bash": policy.KindShell, "shell": policy.KindShell, "exec_command": policy.KindShell,
	"run_shell_command": policy.KindShell, "local_shell": policy.KindShell, "unified_exec": policy.KindShell,
	// write
	"write": policy.KindWrite, "write_file": policy.KindWrite, "create_file": policy.KindWrite,
	// edit
	"edit": policy.KindEdit, "multiedit": policy.KindEdit, "notebookedit": policy.KindEdit,
	"replace": policy.KindEdit, "edit_file": policy.KindEdit, "multi_edit": policy.KindEdit, "apply_patch": policy.KindEdit,
	// read
	"read": policy.KindRead, "glob": policy.KindRead, "grep": policy.KindRead, "ls": policy.KindRead,
	"view": policy.KindRead, "read_file": policy.KindRead, "read_many_files": policy.KindRead,
	"list_directory": policy.KindRead, "search_file_content": policy.KindRead,
	// net
	"webfetch": policy.KindNet, "websearch": policy.KindNet, "web_fetch": policy.KindNet,
	"google_web_search": policy.KindNet, "fetch": policy.KindNet, "download": policy.KindNet,
	"agentic_fetch": policy.KindNet,
}

// toolInput holds the tool_input fields the mapping reads.
type toolInput struct {
	Command   json.RawMessage `json:"command"`
	Cmd       json.RawMessage `json:"cmd"`
	Cwd       string          `json:"cwd"`
	Workdir   string          `json:"workdir"`
	Directory string          `json:"directory"`
	FilePath  string          `json:"file_path"`
	Path      string          `json:"path"`
	AbsPath   string          `json:"absolute_path"`
	Notebook  string          `json:"notebook_path"`
	URL       string          `json:"url"`
	Query     string          `json:"query"`
	Patch     string          `json:"input"`
	PatchAlt  string          `json:"patch"`
}

var patchFile = regexp.MustCompile(`(?m)^\*\*\* (?:Add|Update|Delete) File: (.+)$`)

// toolRequest maps one tool call to a request.
func toolRequest(tool string, raw json.RawMessage, cwd string) (approvals.Request, error) {
	req := approvals.Request{Tool: tool, Input: raw, Cwd: cwd}
	var in toolInput
	if len(raw) > 0 && string(raw) != "null" {
		if err := json.Unmarshal(raw, &in); err != nil {
			return approvals.Request{}, fmt.Errorf("tool_input of %s is not a JSON object: %w", tool, err)
		}
	}
	lower := strings.ToLower(tool)
	kind, known := toolKinds[lower]
	switch {
	case strings.HasPrefix(tool, "mcp__"):
		req.Kind = policy.KindMCP
		return req, nil
	case !known:
		req.Kind = policy.KindOther
		return req, nil
	}
	req.Kind = kind
	switch kind {
	case policy.KindShell:
		cmd, err := commandText(first(string(in.Command), string(in.Cmd)))
		if err != nil {
			return approvals.Request{}, fmt.Errorf("%s: %w", tool, err)
		}
		req.Command = cmd
		if d := first(in.Cwd, in.Workdir, in.Directory); d != "" {
			req.Cwd = d
		}
	case policy.KindWrite, policy.KindEdit, policy.KindRead:
		req.Path = first(in.FilePath, in.Notebook, in.AbsPath, in.Path)
		if lower == "apply_patch" {
			files := patchFile.FindAllStringSubmatch(first(in.Patch, in.PatchAlt, patchText(in.Command)), -1)
			if len(files) != 1 {
				// a patch of several files is one request no path template can cover
				req.Kind, req.Path = policy.KindOther, ""
				return req, nil
			}
			req.Path = strings.TrimSpace(files[0][1])
		}
		if req.Path == "" && kind == policy.KindRead {
			req.Path = cwd // Glob / Grep / ls without a path search the working directory
		}
	case policy.KindNet:
		req.URL = in.URL
		if in.URL != "" {
			if u, err := url.Parse(in.URL); err == nil {
				req.Host = u.Hostname()
				// An explicit port is part of what is asked for (policy,
				// templates and the proxy's grant all judge host:port).
				req.Port, _ = strconv.Atoi(u.Port())
			}
		} else {
			req.Host = "web-search" // a search runs on the agent's provider; the person decides
		}
	}
	return req, nil
}

// patchText is a patch given as tool_input.command, as Codex's hooks give
// apply_patch's (0.171.0); "" when it is not a string.
func patchText(raw json.RawMessage) string {
	var s string
	if json.Unmarshal(raw, &s) != nil {
		return ""
	}
	return s
}

// commandText reads a command given as a string or as an argv array.
func commandText(raw string) (string, error) {
	if raw == "" {
		return "", errors.New("no command in tool_input")
	}
	var s string
	if err := json.Unmarshal([]byte(raw), &s); err == nil {
		return s, nil
	}
	var argv []string
	if err := json.Unmarshal([]byte(raw), &argv); err != nil || len(argv) == 0 {
		return "", errors.New("command is neither a string nor a list of words")
	}
	// ["bash", "-lc", "script"] runs script: judge the script itself, when
	// the policy's reader finds that script there (not in ./bash or
	// /tmp/x/bash, which are not the shell).
	if len(argv) == 3 && (argv[0] == "bash" || argv[0] == "sh" || argv[0] == "zsh" ||
		strings.HasSuffix(argv[0], "/bash") || strings.HasSuffix(argv[0], "/sh")) && (argv[1] == "-lc" || argv[1] == "-c") {
		if script, ok := policy.ShellScript(argv); ok && script == argv[2] {
			return argv[2], nil
		}
	}
	return approvals.QuoteArgv(argv), nil
}
