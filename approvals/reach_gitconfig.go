package approvals

import (
	"path/filepath"
	"strings"

	"github.com/sentinelhq/sentinel/policy"
)

// `git config user.name x` where the sandbox keeps the config file
// read-only (a repository's .git/config always is; ~/.gitconfig is hidden)
// cannot take effect either: approved, git fails to lock the file. It is
// denied at once with why, not offered.

// gitConfigWrites are the options and subcommands by which git config
// writes its file.
var gitConfigWrites = map[string]bool{
	"--unset": true, "--unset-all": true, "--add": true, "--replace-all": true, "--rename-section": true,
	"--remove-section": true, "-e": true, "--edit": true,
	"set": true, "unset": true, "rename-section": true, "remove-section": true, "edit": true,
}

// gitConfigReads are the options and subcommands that only read.
var gitConfigReads = map[string]bool{
	"--get": true, "--get-all": true, "--get-regexp": true, "--get-urlmatch": true, "-l": true, "--list": true,
	"--get-color": true, "--get-colorbool": true, "get": true, "list": true,
}

// gitConfigTarget is the file a `git config` argv writes, or "" when it
// does not write (or is not git config). base is the directory it runs in.
func gitConfigTarget(argv []string, base string, ctx policy.Context) string {
	if len(argv) < 2 || filepath.Base(argv[0]) != "git" {
		return ""
	}
	i := 1
	for i < len(argv) && argv[i] != "config" { // git's own options before the command
		switch a := argv[i]; {
		case a == "-C" && i+1 < len(argv):
			base = join(base, argv[i+1])
			i += 2
		case a == "-c" && i+1 < len(argv):
			i += 2
		case strings.HasPrefix(a, "-"):
			i++
		default:
			return "" // another git command
		}
	}
	if i >= len(argv) {
		return ""
	}
	file := ""
	write, operands := false, 0
	args := argv[i+1:]
	for j := 0; j < len(args); j++ {
		a := args[j]
		switch {
		case gitConfigReads[a]:
			return ""
		case gitConfigWrites[a]:
			write = true
		case a == "--global":
			if ctx.Home == "" {
				return ""
			}
			file = filepath.Join(ctx.Home, ".gitconfig")
		case a == "--system":
			file = "/etc/gitconfig"
		case (a == "-f" || a == "--file") && j+1 < len(args):
			file = join(base, args[j+1])
			j++
		case strings.HasPrefix(a, "--file="):
			file = join(base, strings.TrimPrefix(a, "--file="))
		case strings.HasPrefix(a, "-"):
		default:
			operands++
		}
	}
	if !write && operands < 2 {
		return ""
	}
	if file == "" {
		if ctx.Workspace == "" {
			return ""
		}
		file = filepath.Join(ctx.Workspace, ".git", "config")
	}
	return file
}

func join(base, p string) string {
	if filepath.IsAbs(p) || base == "" {
		return filepath.Clean(p)
	}
	return filepath.Join(base, p)
}

// gitConfigOutOfReach answers a git config write the policy would ask
// about, or allow (the copy's own identity keys, policy/gitidentity.go),
// whose file the sandbox does not let the coder write: a clear deny with
// why, never a card nobody can make work, nor a command that fails on a
// read-only file with git's less helpful words.
func (b *Broker) gitConfigOutOfReach(req Request, v policy.Verdict) (Decision, bool) {
	if b.cfg.Sees == nil || req.Kind != policy.KindShell || v.Decision == policy.Deny {
		return Decision{}, false
	}
	parts, err := splitCommands(req.Command)
	if err != nil {
		return Decision{}, false
	}
	base := req.Cwd
	if base == "" {
		base = b.cfg.Context.Cwd
	}
	for _, p := range parts {
		if f := gitConfigTarget(p.Argv, base, b.cfg.Context); f != "" && !b.cfg.Sees(f, true) {
			return denyBy("sandbox", "the sandbox keeps "+f+" read-only, so approving cannot let git config write it; the coder should go on without it, or ask the person to run the git config command themselves outside Sentinel"), true
		}
	}
	return Decision{}, false
}
