// Package hardgit runs git so that nothing a repository holds — its config,
// the config it includes, its attributes files, its hooks — can make git run
// a program or read config from outside the repository.
//
// Every git call Sentinel makes goes through it (runner's gitCmd wraps it).
// The protections, each proved by a test in this package:
//
//   - system and global config are ignored and the caller's GIT_* variables
//     are dropped (they could point git at another repository or config);
//   - hooks, fsmonitor, pagers, credential helpers, ssh commands, the
//     global attributes file and external diff are switched off by -c;
//   - every filter, diff and merge driver that the effective config of the
//     git dir defines (its own config and whatever it includes) is
//     overridden with an empty command and filters are made optional, so an
//     attribute such as "* filter=x diff=x merge=x" in a .gitattributes or
//     info/attributes finds a driver that runs nothing. Git 2.39 does not
//     run an empty driver: a filter is skipped, a textconv or diff/merge
//     command fails with "cannot run" (the call fails; nothing runs).
//     Diff-like commands must pass --no-ext-diff --no-textconv: with
//     diff.external set empty, a diff without --no-ext-diff fails rather
//     than run anything;
//   - core.protectHFS and core.protectNTFS are on, so git itself refuses
//     paths that a case-folding or NTFS file system would take for .git.
//
// git itself is the system's (internal/hostbin), never one found first on
// PATH or in the project: it runs on the host with the person's environment.
//
// The overrides are passed as GIT_CONFIG_COUNT/KEY/VALUE, which keeps a key
// whose subsection holds '=' intact (a -c argument would split it).
package hardgit

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strconv"
	"strings"

	"github.com/sentinelhq/sentinel/internal/hostbin"
)

// Config is the -c list every call gets.
var Config = []string{
	"-c", "core.hooksPath=/dev/null",
	"-c", "core.fsmonitor=false",
	"-c", "core.untrackedCache=false",
	"-c", "core.pager=cat",
	"-c", "core.attributesFile=/dev/null",
	"-c", "core.askPass=",
	"-c", "core.sshCommand=false",
	"-c", "core.gitProxy=",
	"-c", "core.protectHFS=true",
	"-c", "core.protectNTFS=true",
	"-c", "diff.external=",
	"-c", "credential.helper=",
	"-c", "protocol.allow=never",
	"-c", "protocol.file.allow=always",
	"-c", "gc.auto=0",
	"-c", "maintenance.auto=false",
	"-c", "advice.detachedHead=false",
	"-c", "commit.gpgSign=false",
	"-c", "tag.gpgSign=false",
	"-c", "user.name=Sentinel",
	"-c", "user.email=sentinel@localhost",
}

// Env is the environment every git call gets: no system or global config,
// no system attributes, no pager, no prompts, no replace refs, and none of
// the GIT_* variables the person's shell might carry. Where the person set
// no GLIBC_TUNABLES, git's malloc asks for transparent huge pages
// (hugeTLBTunable).
func Env(extra ...string) []string {
	env := []string{
		"GIT_CONFIG_NOSYSTEM=1",
		"GIT_CONFIG_GLOBAL=/dev/null",
		"GIT_ATTR_NOSYSTEM=1",
		"GIT_NO_REPLACE_OBJECTS=1",
		"GIT_TERMINAL_PROMPT=0",
		"GIT_PAGER=cat",
		"PAGER=cat",
		"GIT_OPTIONAL_LOCKS=0",
		"LC_ALL=C",
	}
	tunables := false
	for _, kv := range os.Environ() {
		k, _, _ := strings.Cut(kv, "=")
		if strings.HasPrefix(k, "GIT_") || k == "PAGER" || k == "LC_ALL" {
			continue
		}
		tunables = tunables || k == "GLIBC_TUNABLES"
		env = append(env, kv)
	}
	if !tunables {
		env = append(env, hugeTLBTunable)
	}
	return append(env, extra...)
}

// hugeTLBTunable has glibc's malloc (2.35 and later; others ignore it)
// back its large heaps with transparent huge pages where the kernel offers
// them on request (madvise). Reading a 500,000-entry index allocates about
// 40 MB of entries: in 4 KB pages that is 20,000 page faults, which cost
// git status 0.35 of its 2.8 CPU seconds on a VM whose page faults are
// slow; with huge pages, 2,500 (issue 33, cmd/bench -rows workspace500k).
// It changes where memory comes from, nothing git computes.
const hugeTLBTunable = "GLIBC_TUNABLES=glibc.malloc.hugetlb=1"

// driverKeys are the keys of a filter, diff or merge driver that name a
// program, with the value that neutralises each.
var driverKeys = map[string][][2]string{
	"filter": {{"clean", ""}, {"smudge", ""}, {"process", ""}, {"required", "false"}},
	"diff":   {{"textconv", ""}, {"command", ""}, {"cachetextconv", "false"}},
	"merge":  {{"driver", ""}},
}

// Overrides lists, as GIT_CONFIG_COUNT environment entries, the settings
// that neutralise every filter, diff and merge driver the effective config
// of the repository at dir (with env, which may set GIT_DIR) defines.
func Overrides(ctx context.Context, dir string, env []string) ([]string, error) {
	args := append(append([]string{}, Config...), "config", "--list", "--name-only", "-z")
	gitBin, err := hostbin.Find("git")
	if err != nil {
		return nil, err
	}
	cmd := exec.CommandContext(ctx, gitBin, args...)
	cmd.Dir = dir
	cmd.Env = Env(env...)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Run(); err != nil {
		// Outside a repository git config --list still succeeds; failing
		// here means git cannot read the config, so nothing may run.
		return nil, fmt.Errorf("read git config to neutralise its drivers: %w: %s", err, firstLine(errb.String()))
	}
	seen := map[string]bool{}
	var keys, vals []string
	for _, name := range strings.Split(out.String(), "\x00") {
		first, last := strings.IndexByte(name, '.'), strings.LastIndexByte(name, '.')
		if first < 0 || first == last {
			continue // no subsection: not a driver
		}
		section, sub := strings.ToLower(name[:first]), name[first+1:last]
		set, ok := driverKeys[section]
		if !ok || seen[section+"\x00"+sub] {
			continue
		}
		seen[section+"\x00"+sub] = true
		for _, kv := range set {
			keys = append(keys, section+"."+sub+"."+kv[0])
			vals = append(vals, kv[1])
		}
	}
	if len(keys) == 0 {
		return nil, nil
	}
	envs := []string{"GIT_CONFIG_COUNT=" + strconv.Itoa(len(keys))}
	for i := range keys {
		envs = append(envs, fmt.Sprintf("GIT_CONFIG_KEY_%d=%s", i, keys[i]), fmt.Sprintf("GIT_CONFIG_VALUE_%d=%s", i, vals[i]))
	}
	return envs, nil
}

// Git is one hardened git invocation's setting: where it runs, extra
// environment (GIT_DIR, GIT_INDEX_FILE…), and optional input and output.
type Git struct {
	Dir   string
	Env   []string
	Stdin io.Reader
	// Stdout, when set, receives the output instead of Run's string.
	Stdout io.Writer
	// Wrap, when set, may rewrite the git command before it runs (run it
	// through a helper, e.g. in a private mount namespace); the hardening
	// (arguments, environment) is already in place.
	Wrap func(*exec.Cmd)
	// NoContent is set only for a command that reads no file of the work
	// tree and no object (rev-parse --show-toplevel): it skips the scan of
	// the repository's config for drivers, a second git start, since such
	// a command gives a filter, diff or merge driver nothing to run on.
	// The -c list and the environment stay. Commands RunsNoDriver knows
	// (rev-parse, mktree, commit-tree, cat-file, ls-files…) skip the scan
	// without it.
	NoContent bool
	// Known, when set, holds what Overrides returned for this same Dir and
	// Env: Run uses it instead of scanning again. Only for a git dir whose
	// config nobody but the caller can change in between (Sentinel's own
	// shadow git dir, within one step that writes no config).
	Known *[]string
}

// Run runs git with args, hardened, and returns its output (empty when
// Stdout is set). The error carries the first line of git's stderr.
func (g Git) Run(ctx context.Context, args ...string) (string, error) {
	var over []string
	switch {
	case g.NoContent || RunsNoDriver(args):
	case g.Known != nil:
		over = *g.Known
	default:
		var err error
		if over, err = Overrides(ctx, g.Dir, g.Env); err != nil {
			return "", err
		}
	}
	full := append(append([]string{}, Config...), args...)
	gitBin, err := hostbin.Find("git")
	if err != nil {
		return "", err
	}
	cmd := exec.CommandContext(ctx, gitBin, full...)
	cmd.Dir = g.Dir
	cmd.Env = Env(append(append([]string{}, g.Env...), over...)...)
	cmd.Stdin = g.Stdin
	if g.Wrap != nil {
		g.Wrap(cmd)
	}
	var out, errb bytes.Buffer
	cmd.Stdout = &out
	if g.Stdout != nil {
		cmd.Stdout = g.Stdout
	}
	cmd.Stderr = &errb
	if err := cmd.Run(); err != nil {
		return out.String(), fmt.Errorf("%s: %w: %s", commandName(args), err, firstLine(errb.String()))
	}
	return out.String(), nil
}

// commandName is "git <subcommand>" for error messages, past any -c pairs.
func commandName(args []string) string {
	for i := 0; i < len(args); i++ {
		if args[i] == "-c" {
			i++
			continue
		}
		return "git " + args[i]
	}
	return "git"
}

func firstLine(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		s = s[:i]
	}
	return s
}
