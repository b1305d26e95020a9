package policy

import "strings"

// Options of build tools whose options can run code, reach the network or
// turn the tool's own sandbox off, judged by an allowlist: bazel
// (--workspace_status_command, --action_env=LD_PRELOAD=…, --copt=-fplugin=…,
// --spawn_strategy=local, --override_module), helm (--post-renderer,
// --kube-context, --validate) and kustomize (--enable-exec,
// --load-restrictor, --enable-helm, and a remote target, which is a fetch).
// An option the list does not hold sends the line to the tool's own
// handler, which asks.

// toolOptAllow: per tool, the options that only change what is built,
// tested or printed; the value says whether the option takes the next word.
var toolOptAllow = lazy[map[string]map[string]bool]{build: func() map[string]map[string]bool {
	return map[string]map[string]bool{
		"bazel": {"keep_going": false, "k": false, "config": true, "compilation_mode": true, "c": true, "jobs": true,
			"j": true, "verbose_failures": false, "test_output": true, "output": true, "test_filter": true, "test_timeout": true,
			"cache_test_results": true, "nocache_test_results": false, "runs_per_test": true, "test_tag_filters": true,
			"build_tag_filters": true, "build_tests_only": false, "color": true, "curses": true, "noshow_progress": false,
			"show_timestamps": false, "announce_rc": false, "test_size_filters": true, "flaky_test_attempts": true,
			"test_summary": true, "nobuild_runfile_links": false, "check_visibility": false},
		"helm": {"f": true, "values": true, "set": true, "set-string": true, "n": true, "namespace": true, "s": true,
			"show-only": true, "version": true, "app-version": true, "a": true, "api-versions": true, "kube-version": true,
			"include-crds": false, "skip-crds": false, "skip-tests": false, "debug": false, "strict": false, "quiet": false,
			"with-subcharts": false, "is-upgrade": false, "no-hooks": false, "release-name": false, "name-template": true,
			"skip-schema-validation": false},
		"kustomize": {"stack-trace": false, "reorder": true},
	}
}}

// toolOptTable is the tool's option allowlist and the name it is kept
// under (bazelisk and aspect are bazel, kubectl kustomize is kustomize); ok
// is false for a tool with none.
func toolOptTable(tool string) (string, map[string]bool, bool) {
	switch tool {
	case "bazelisk", "aspect":
		tool = "bazel"
	case "kubectl":
		tool = "kustomize" // kubectl kustomize DIR
	}
	allow, ok := toolOptAllow.get()[tool]
	return tool, allow, ok
}

// toolOption reads the option args[i] against the tool's allowlist: known
// says the list holds it, span how many words it takes (2 when its value
// is the next word). toolOptionsKnown and toolArgs both read options
// through it, so they never disagree on which words are values.
func toolOption(allow map[string]bool, args []word, i int) (span int, known bool) {
	name, _, hasVal := strings.Cut(strings.TrimLeft(args[i].val, "-"), "=")
	takes, known := allow[name]
	if !known {
		return 1, false
	}
	if takes && !hasVal {
		return 2, true
	}
	return 1, true
}

// toolOptionsKnown: every option of the line is one the tool's allowlist
// holds, and a kustomize target is a local directory. Tools without a
// list pass.
func toolOptionsKnown(tool string, args []word) bool {
	tool, allow, ok := toolOptTable(tool)
	if !ok {
		return true
	}
	for i := 0; i < len(args); i++ {
		w := args[i]
		if !w.static || w.brace {
			return false
		}
		v := w.val
		if v == "--" {
			if tool == "bazel" {
				continue // targets follow, -//x excluded
			}
			return false
		}
		if !strings.HasPrefix(v, "-") || len(v) == 1 {
			if tool == "kustomize" && kustomizeRemote(v) {
				return false
			}
			continue
		}
		if tool == "bazel" && strings.HasPrefix(v, "-//") {
			continue // a negative target pattern
		}
		span, known := toolOption(allow, args, i)
		if !known {
			return false
		}
		i += span - 1
	}
	return true
}

// kustomizeRemote: a kustomize target that names a repository or URL
// rather than a directory of the workspace.
func kustomizeRemote(v string) bool {
	if strings.Contains(v, "://") || strings.HasPrefix(v, "git@") || strings.Contains(v, "?") || strings.Contains(v, "//") {
		return true
	}
	first, _, _ := strings.Cut(v, "/")
	return first != "." && first != ".." && strings.Contains(first, ".")
}
