package patch

import (
	"path"
	"strings"
)

// RunsCodeLater reports whether a path is one that tools execute or obey
// later (SECURITY.md layer 4): direnv, editor and agent settings, git
// metadata files, CI workflows, shell start-up files, git hooks.
func RunsCodeLater(p string) bool { return WhyRunsCodeLater(p) != "" }

// laterFiles are file names that run code later wherever they sit.
var laterFiles = map[string]string{
	".envrc":                  "direnv runs it on cd",
	".mcp.json":               "agent MCP servers: starts programs",
	".gitmodules":             "submodules: git fetches and checks out code",
	".gitattributes":          "git attributes: can name filters and diff drivers that run",
	".bashrc":                 "shell start-up file",
	".bash_profile":           "shell start-up file",
	".bash_login":             "shell start-up file",
	".bash_logout":            "shell start-up file",
	".profile":                "shell start-up file",
	".zshrc":                  "shell start-up file",
	".zprofile":               "shell start-up file",
	".zshenv":                 "shell start-up file",
	".zlogin":                 "shell start-up file",
	".cshrc":                  "shell start-up file",
	".tcshrc":                 "shell start-up file",
	".inputrc":                "shell start-up file",
	".npmrc":                  "npm config: can run scripts and change registries",
	".yarnrc":                 "yarn config: can run scripts and change registries",
	".yarnrc.yml":             "yarn config: can run scripts and change registries",
	".pre-commit-config.yaml": "pre-commit hooks run on commit",
	"Makefile.local":          "included by make",
}

// laterDirs are directories whose files run code later.
var laterDirs = []struct{ dir, why string }{
	{".vscode/", "editor settings and tasks run programs"},
	{".idea/", "editor settings and run configurations"},
	{".claude/", "agent settings and hooks run programs"},
	{".codex/", "agent settings run programs"},
	{".gemini/", "agent settings run programs"},
	{".cursor/", "agent settings run programs"},
	{".github/workflows/", "CI workflow: runs on push"},
	{".gitlab-ci/", "CI configuration: runs on push"},
	{".githooks/", "git hook"},
	{".husky/", "git hook"},
	{".devcontainer/", "dev container: runs on open"},
	{".git/", "writes into git's own directory"},
}

// WhyRunsCodeLater says why a path runs code later, or "" when it does not.
func WhyRunsCodeLater(p string) string {
	if why, ok := laterFiles[path.Base(p)]; ok {
		return why
	}
	if path.Base(p) == ".gitlab-ci.yml" {
		return "CI configuration: runs on push"
	}
	for _, d := range laterDirs {
		if strings.HasPrefix(p, d.dir) || strings.Contains(p, "/"+d.dir) {
			return d.why
		}
	}
	return ""
}

// flag marks a file that runs code later, with the reason the review shows.
func flag(f *File) {
	why := WhyRunsCodeLater(f.Path)
	if why == "" && f.OldPath != "" {
		why = WhyRunsCodeLater(f.OldPath)
	}
	also := ""
	switch {
	case f.NewMode == "100755" && f.Status == Added:
		also = "new executable"
	case f.NewMode == "100755" && f.OldMode != "100755" && f.Status != Deleted:
		also = "made executable"
	case f.NewMode == "120000" && f.OldMode != "120000" && f.Status != Deleted:
		also = "new symlink"
	}
	switch {
	case why == "":
		why = also
	case also != "":
		why += " · " + also
	}
	f.Flagged, f.FlagReason = why != "", why
}
