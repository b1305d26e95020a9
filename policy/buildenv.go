package policy

import "strings"

// Build and test variables judged by their value (issue 32, polcorp7):
//
//   - The sanitizer runtimes' options (ASAN_OPTIONS, UBSAN_OPTIONS,
//     LSAN_OPTIONS, TSAN_OPTIONS, MSAN_OPTIONS, HWASAN_OPTIONS) are
//     colon- or comma-separated key=value flags read by the instrumented
//     program (compiler-rt's sanitizer_flags.inc, asan_flags.inc). Most
//     only tune reports (detect_leaks=1, halt_on_error=0,
//     print_stacktrace=1). A few name files or programs: log_path and
//     coverage_dir write, suppressions and include read, and
//     external_symbolizer_path runs a program. The value is everyday when
//     every key is one of sanitizerKeys and every value a plain token.
//   - GOPRIVATE, GONOPROXY and GONOSUMDB are comma-separated module path
//     patterns (go help private): they make the go command fetch those
//     modules straight from their repositories and skip the checksum
//     database for them. A list of module paths under a named domain is
//     an organisation's private modules, everyday; a pattern that covers
//     every module (*, a bare *.com) would switch the checksum check off
//     for everything: asked (or denied, by the name) as before.

// sanitizerKeys are the sanitizer flags that only tune detection and
// reporting.
var sanitizerKeys = wordSet{words: []string{"detect_leaks", "halt_on_error", "abort_on_error", "print_stacktrace",
	"symbolize", "detect_stack_use_after_return", "fast_unwind_on_malloc", "fast_unwind_on_fatal", "allocator_may_return_null",
	"detect_odr_violation", "check_initialization_order", "strict_init_order", "strict_string_checks", "verbosity",
	"malloc_context_size", "exitcode", "second_deadlock_stack", "history_size", "report_objects", "use_sigaltstack",
	"handle_segv", "handle_abort", "handle_sigill", "handle_sigfpe", "handle_sigbus", "detect_container_overflow",
	"quarantine_size_mb", "max_leaks", "report_globals", "color", "print_summary", "print_module_map", "print_suppressions",
	"detect_deadlocks", "report_signal_unsafe", "report_thread_leaks", "report_destroy_locked", "die_after_fork",
	"silence_unsupported", "print_cmdline", "atexit", "leak_check_at_exit", "use_unaligned", "detect_invalid_pointer_pairs",
	"alloc_dealloc_mismatch", "new_delete_type_mismatch", "poison_heap", "debug", "check_malloc_usable_size",
	"intercept_strlen", "intercept_strchr", "replace_str", "strip_path_prefix", "report_error_type", "dedup_token_length",
	"unmap_shadow_on_exit", "protect_shadow_gap", "allow_user_segv_handler", "handle_ioctl", "exit_code", "dump_instruction_bytes",
	"full_address_space", "stack_trace_format", "suppress_equal_pcs", "disable_coredump", "use_madv_dontdump"}}

func sanitizerOptions(v string) bool {
	if v == "" || len(v) > 512 {
		return false
	}
	for _, kv := range strings.FieldsFunc(v, func(r rune) bool { return r == ':' || r == ',' || r == ' ' }) {
		k, val, ok := strings.Cut(kv, "=")
		if !ok || !sanitizerKeys.has(k) || !plainToken(val) || strings.Contains(val, ":") {
			return false
		}
	}
	return true
}

// goModulePatterns: a comma-separated list of module path patterns, each
// under a named domain (example.com/internal, *.corp.example.com,
// github.com/acme/*), none covering every module or every module of a
// host.
func goModulePatterns(v string) bool {
	if v == "" || len(v) > 512 {
		return false
	}
	for _, p := range strings.Split(v, ",") {
		if p == "" {
			return false
		}
		host, path, _ := strings.Cut(p, "/")
		if first, _, _ := strings.Cut(path, "/"); path != "" && strings.Trim(first, "*?") == "" {
			return false // github.com/*: every module on a public host
		}
		labels := strings.Split(host, ".")
		if len(labels) < 2 {
			return false
		}
		named := 0
		for _, l := range labels {
			if l == "" {
				return false
			}
			if !strings.ContainsAny(l, "*?[") {
				named++
			}
		}
		if named < 2 { // *.com, *.*: every module of a top-level domain
			return false
		}
		for _, r := range p {
			if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("./-_~*?", r)) {
				return false
			}
		}
	}
	return true
}

// buildEnvValues adds the judges above to envValueTable.
func buildEnvValues(m map[string]envValueJudge) {
	for _, n := range []string{"ASAN_OPTIONS", "UBSAN_OPTIONS", "LSAN_OPTIONS", "TSAN_OPTIONS", "MSAN_OPTIONS", "HWASAN_OPTIONS"} {
		m[n] = sanitizerOptions
	}
	for _, n := range []string{"GOPRIVATE", "GONOPROXY", "GONOSUMDB"} {
		m[n] = goModulePatterns
	}
}
