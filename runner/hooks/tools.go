package hooks

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/sentinelhq/sentinel/approvals/wire"
	"github.com/sentinelhq/sentinel/internal/flatjson"
	"github.com/sentinelhq/sentinel/policy/kind"
)

// toolKinds maps the hook agents' tool names (lower case; Claude Code,
// Codex, Gemini CLI and Crush in one table) to request kinds: a payload is
// mapped the same whichever dialect read it. A name not here is kind other,
// which the policy sends to a person.
var toolKinds = map[string]kind.Kind{
	// shell
	"bash": kind.Shell, "shell": kind.Shell, "exec_command": kind.Shell,
	"run_shell_command": kind.Shell, "local_shell": kind.Shell, "unified_exec": kind.Shell,
	// write
	"write": kind.Write, "write_file": kind.Write, "create_file": kind.Write,
	// edit
	"edit": kind.Edit, "multiedit": kind.Edit, "notebookedit": kind.Edit,
	"replace": kind.Edit, "edit_file": kind.Edit, "multi_edit": kind.Edit, "apply_patch": kind.Edit,
	// read
	"read": kind.Read, "glob": kind.Read, "grep": kind.Read, "ls": kind.Read,
	"view": kind.Read, "read_file": kind.Read, "read_many_files": kind.Read,
	"list_directory": kind.Read, "search_file_content": kind.Read, "grep_search": kind.Read,
	// net
	"webfetch": kind.Net, "websearch": kind.Net, "web_fetch": kind.Net,
	"google_web_search": kind.Net, "fetch": kind.Net, "download": kind.Net,
	"agentic_fetch": kind.Net,
}

// toolInput holds the tool_input fields the mapping reads.
type toolInput struct {
	Command, Cmd       []byte // command, cmd: raw JSON (a string, or a list of words)
	Cwd, Workdir       string
	Directory, DirPath string // dir_path — Gemini CLI: the shell's directory, or the one listed or searched
	FilePath, Path     string // file_path, path
	AbsPath, Notebook  string // absolute_path, notebook_path
	URL, Query         string
	Patch, PatchAlt    string // input, patch
}

// readToolInput reads the tool input as readPayload reads the payload; an
// absent or null one is empty.
func readToolInput(a member) (toolInput, error) {
	o, err := a.of.Object(a.name)
	if err != nil || o == nil {
		return toolInput{}, err
	}
	in := toolInput{Command: o.Raw("command"), Cmd: o.Raw("cmd")}
	err = o.ReadStrings(flatjson.Field{Dst: &in.Cwd, Name: "cwd"}, flatjson.Field{Dst: &in.Workdir, Name: "workdir"},
		flatjson.Field{Dst: &in.Directory, Name: "directory"}, flatjson.Field{Dst: &in.DirPath, Name: "dir_path"},
		flatjson.Field{Dst: &in.FilePath, Name: "file_path"}, flatjson.Field{Dst: &in.Path, Name: "path"},
		flatjson.Field{Dst: &in.AbsPath, Name: "absolute_path"}, flatjson.Field{Dst: &in.Notebook, Name: "notebook_path"},
		flatjson.Field{Dst: &in.URL, Name: "url"}, flatjson.Field{Dst: &in.Query, Name: "query"},
		flatjson.Field{Dst: &in.Patch, Name: "input"}, flatjson.Field{Dst: &in.PatchAlt, Name: "patch"})
	if err != nil {
		return toolInput{}, err
	}
	return in, nil
}

// toolRequest maps one tool call to a request.
func toolRequest(tool string, args member, cwd string) (wire.Request, error) {
	req := wire.Request{Tool: tool, Input: args.raw(), Cwd: cwd}
	in, err := readToolInput(args)
	if err != nil {
		return wire.Request{}, fmt.Errorf("tool_input of %s is not a JSON object: %w", tool, err)
	}
	lower := strings.ToLower(tool)
	k, known := toolKinds[lower]
	switch {
	case strings.HasPrefix(tool, "mcp__"):
		req.Kind = kind.MCP
		return req, nil
	case !known:
		req.Kind = kind.Other
		return req, nil
	}
	req.Kind = k
	switch k {
	case kind.Shell:
		cmd, argv, err := commandText(first(string(in.Command), string(in.Cmd)))
		if err != nil {
			return wire.Request{}, fmt.Errorf("%s: %w", tool, err)
		}
		req.Command, req.Argv = cmd, argv
		if d := first(in.Cwd, in.Workdir, in.Directory, inDir(in.DirPath, cwd)); d != "" {
			req.Cwd = d
		}
	case kind.Write, kind.Edit, kind.Read:
		req.Path = first(in.FilePath, in.Notebook, in.AbsPath, in.Path, inDir(in.DirPath, cwd))
		if lower == "apply_patch" {
			files := patchFiles(first(in.Patch, in.PatchAlt, patchText(in.Command)))
			if len(files) != 1 {
				// a patch of several files is one request no path template can cover
				req.Kind, req.Path = kind.Other, ""
				return req, nil
			}
			req.Path = strings.TrimSpace(files[0])
		}
		if req.Path == "" && k == kind.Read {
			req.Path = cwd // Glob / Grep / ls without a path search the working directory
		}
	case kind.Net:
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

// inDir is dir (Gemini CLI's dir_path, relative to the project) made
// absolute against cwd.
func inDir(dir, cwd string) string {
	if dir == "" || filepath.IsAbs(dir) || cwd == "" {
		return dir
	}
	return filepath.Join(cwd, dir)
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

// commandText reads a command given as a string, or as an argv array: its
// words quoted as one line, and the words themselves, from which the broker
// makes the command it judges (approvals.ShellCommand: the script of
// ["bash", "-lc", SCRIPT] where the policy's reader finds it there).
func commandText(raw string) (string, []string, error) {
	if raw == "" {
		return "", nil, errors.New("no command in tool_input")
	}
	var s string
	if err := json.Unmarshal([]byte(raw), &s); err == nil {
		return s, nil, nil
	}
	var argv []string
	if err := json.Unmarshal([]byte(raw), &argv); err != nil || len(argv) == 0 {
		return "", nil, errors.New("command is neither a string nor a list of words")
	}
	return wire.QuoteArgv(argv), argv, nil
}

// patchFiles are the files an apply_patch input names: the rest of each
// line that starts "*** Add File: ", "*** Update File: " or "*** Delete
// File: " and has more after it (what the multi-line pattern
// `^\*\*\* (?:Add|Update|Delete) File: (.+)$` finds, without compiling
// one on every hook's start).
func patchFiles(patch string) []string {
	var files []string
	for line := range strings.SplitSeq(patch, "\n") {
		rest, ok := strings.CutPrefix(line, "*** ")
		if !ok {
			continue
		}
		for _, verb := range []string{"Add", "Update", "Delete"} {
			if name, ok := strings.CutPrefix(rest, verb+" File: "); ok && name != "" {
				files = append(files, name)
				break
			}
		}
	}
	return files
}
