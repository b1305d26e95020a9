package policy

import "strings"

// A build tool's long option and its short twin are one option: `swift
// build --configuration release` is `swift build -c release`, `mvn
// --version` is `mvn -v`. The build-verb checks (buildArgs) read option
// names (a name holding "config", "output" or "settings" asks; a single
// letter among the risky ones asks), so the two spellings of one option
// could be judged apart. shortTwins lists, per tool and from each tool's
// own reference, the long options that have a short twin; twinArgs writes
// each long one as its twin before any check, so both are judged alike.
// dotnet --logger is left out: loggerLoadsCode reads its long name.
//
// Sources: SwiftPM `swift build --help` (-c/--configuration, -j/--jobs,
// -v/--verbose, -q/--quiet); Maven CLI options
// (https://maven.apache.org/ref/current/maven-embedder/cli.html); the
// dotnet build/test/run/publish/pack references
// (https://learn.microsoft.com/dotnet/core/tools/); Gradle's command-line
// interface (https://docs.gradle.org/current/userguide/command_line_interface.html);
// Deno's CLI reference (https://docs.deno.com/runtime/reference/cli/).
var shortTwins = lazy[map[string]map[string]string]{build: func() map[string]map[string]string {
	return map[string]map[string]string{
		"swift": {"configuration": "-c", "jobs": "-j", "verbose": "-v", "quiet": "-q"},
		"mvn": {"version": "-v", "quiet": "-q", "batch-mode": "-B", "offline": "-o", "errors": "-e",
			"update-snapshots": "-U", "no-transfer-progress": "-ntp", "debug": "-X", "threads": "-T",
			"projects": "-pl", "also-make": "-am", "also-make-dependents": "-amd", "settings": "-s",
			"global-settings": "-gs", "file": "-f", "activate-profiles": "-P", "define": "-D",
			"non-recursive": "-N", "fail-at-end": "-fae", "fail-fast": "-ff", "fail-never": "-fn",
			"resume-from": "-rf", "toolchains": "-t", "global-toolchains": "-gt", "log-file": "-l",
			"show-version": "-V", "help": "-h", "strict-checksums": "-C", "lax-checksums": "-c",
			"no-snapshot-updates": "-nsu", "encrypt-password": "-ep", "encrypt-master-password": "-emp"},
		"dotnet": {"configuration": "-c", "framework": "-f", "verbosity": "-v", "runtime": "-r", "arch": "-a",
			"output": "-o", "settings": "-s", "environment": "-e", "list-tests": "-t",
			"diag": "-d", "property": "-p", "help": "-h"},
		"gradle": {"quiet": "-q", "info": "-i", "debug": "-d", "stacktrace": "-s", "full-stacktrace": "-S",
			"init-script": "-I", "project-dir": "-p", "build-file": "-b", "settings-file": "-c",
			"gradle-user-home": "-g", "exclude-task": "-x", "dry-run": "-m", "project-prop": "-P",
			"system-prop": "-D", "version": "-v", "help": "-h", "continuous": "-t"},
		"deno": {"allow-all": "-A", "output": "-o", "reload": "-r", "quiet": "-q", "config": "-c",
			"log-level": "-L", "include": "-I", "help": "-h", "version": "-V"},
	}
}}

// twinOf is the short twin of tool's long option opt ("--configuration"),
// or "" when it has none.
func twinOf(tool, opt string) string {
	if tool == "gradlew" {
		tool = "gradle"
	}
	name, ok := strings.CutPrefix(opt, "--")
	if !ok {
		return ""
	}
	return shortTwins.get()[tool][name]
}

// twinArgs writes each long option of args that has a short twin as that
// twin (`--configuration=release` as `-c release`); it returns args itself
// when nothing changed. Words after `--` are operands and stay.
func twinArgs(tool string, args []word) []word {
	if tool == "gradlew" {
		tool = "gradle"
	}
	table := shortTwins.get()[tool]
	if table == nil {
		return args
	}
	var out []word
	for i, w := range args {
		if w.val == "--" {
			if out != nil {
				out = append(out, args[i:]...)
			}
			break
		}
		name, val, hasVal := strings.Cut(strings.TrimPrefix(w.val, "--"), "=")
		short := ""
		if w.static && !w.brace && strings.HasPrefix(w.val, "--") {
			short = table[name]
		}
		if short == "" {
			if out != nil {
				out = append(out, w)
			}
			continue
		}
		if out == nil {
			out = append(make([]word, 0, len(args)+1), args[:i]...)
		}
		s := w
		s.val = short
		out = append(out, s)
		if hasVal {
			v := w
			v.val = val
			out = append(out, v)
		}
	}
	if out == nil {
		return args
	}
	return out
}
