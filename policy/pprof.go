package policy

import "strings"

// `go tool pprof -top cpu.out` prints a report of a profile file and exits:
// it reads the file (and the binary named before it) and runs nothing the
// line does not show but the system's own objdump/addr2line. Without a
// report mode pprof is interactive (reads commands), -http and -web start a
// server or a browser, and a URL operand fetches a profile from a running
// program: those are left to the ask of go tool.

// pprofReports print a text report to standard output.
var pprofReports = wordSet{words: []string{"top", "text", "traces", "tree", "peek", "raw", "tags", "list", "disasm", "callgrind", "dot", "proto"}}

// pprofFlags shape a report and name no file, program or host.
var pprofFlags = wordSet{words: []string{"nodecount", "nodefraction", "edgefraction", "cum", "flat", "sample_index", "unit",
	"lines", "functions", "files", "filefunctions", "addresses", "focus", "ignore", "show", "hide", "show_from", "tagfocus",
	"tagignore", "tagshow", "taghide", "mean", "divide_by", "compact_labels", "noinlines", "trim", "drop_negative",
	"symbolize", "relative_percentages", "granularity", "call_tree", "diff_base", "base", "normalize", "seconds", "timeout",
	"sort", "intel_syntax", "total_delay", "contentions", "alloc_space", "alloc_objects", "inuse_space", "inuse_objects"}}

// pprofValued take a value as the next word when not given with =.
var pprofValued = wordSet{words: []string{"nodecount", "nodefraction", "edgefraction", "sample_index", "unit", "focus", "ignore",
	"show", "hide", "show_from", "tagfocus", "tagignore", "tagshow", "taghide", "divide_by", "symbolize", "granularity",
	"diff_base", "base", "seconds", "timeout", "sort", "list", "disasm", "output", "o"}}

// pprofReport judges go tool pprof ARGS when it prints a report of local
// files; it reports false (judged as go tool is) for any other form.
func pprofReport(x *cmdCtx, args []word) bool {
	report := false
	var files, outs []word
	for i := 0; i < len(args); i++ {
		a := args[i]
		if !a.static || a.pattern {
			return false
		}
		v := a.val
		if !strings.HasPrefix(v, "-") || v == "-" {
			if strings.Contains(v, "://") || strings.Contains(v, ":") {
				return false // a running program's endpoint
			}
			files = append(files, a)
			continue
		}
		name, val, has := strings.Cut(strings.TrimLeft(v, "-"), "=")
		if !has && pprofValued.has(name) && i+1 < len(args) {
			i++
			val = args[i].val
		}
		switch {
		case pprofReports.has(name):
			report = true
		case name == "output" || name == "o":
			outs = append(outs, word{val: val, static: true})
		case name == "symbolize" && val != "none" && val != "local":
			return false // remote symbolization fetches
		case (name == "diff_base" || name == "base") && strings.Contains(val, ":"):
			return false
		case name == "diff_base" || name == "base":
			files = append(files, word{val: val, static: true})
		case !pprofFlags.has(name):
			return false
		}
	}
	if !report || len(files) == 0 {
		return false
	}
	x.add(Allow, RuleBuildProject, "go tool pprof prints a report of a profile")
	for _, f := range files {
		x.read(f)
	}
	for _, o := range outs {
		x.write(o)
	}
	return true
}
