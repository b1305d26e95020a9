package policy

import (
	"regexp"
	"strings"
)

// strace and bear running the project's own command (issue 32, off29;
// polcorp13's `strace -f -e trace=openat ./build/app`, `bear -- make
// -j2`). Each runs one command and only watches it: strace prints the
// system calls the command makes, bear records the compiler calls of a
// build into compile_commands.json. With options the policy knows the
// command is what is judged, as under valgrind (valgrind.go), and the
// file an option names is judged as the write or read it is. Any other
// option keeps the tool opaque (it asks): strace -p attaches to a running
// process (privtools.go), -u runs the command as another user, -E sets
// its environment (LD_PRELOAD=…), -e inject= changes what the calls
// return; bear --config reads settings and --force-preload/-wrapper
// change how it hooks the build.

// straceFlags take no value; straceValued take the next word (or the
// rest of the word) as theirs.
const straceFlags, straceValued = "fcCwTtryvxqkinZzdDF", "seoOaXP"

var straceLong = wordSet{words: []string{"follow-forks", "output-separately", "summary-only", "summary", "summary-wall-clock",
	"syscall-times", "absolute-timestamps", "relative-timestamps", "decode-fds", "no-abbrev", "quiet", "silent",
	"instruction-pointer", "stack-trace", "syscall-number", "successful-only", "failed-only", "seccomp-bpf", "debug", "daemonize"}}

var straceLongVal = wordSet{words: []string{"trace", "signal", "status", "abbrev", "verbose", "raw", "read", "write",
	"string-limit", "output", "columns", "trace-path", "summary-sort", "const-print-style", "quiet", "decode-fds", "decode-pids", "silence"}}

// straceExpr is a -e value that only chooses what strace prints:
// trace=openat,read, signal=none, status=failed, or a bare list.
var straceExpr = lazy[*regexp.Regexp]{build: func() *regexp.Regexp {
	return regexp.MustCompile(`^(?:(?:trace|t|signal|signals|s|status|abbrev|a|verbose|v|raw|x|read|reading|write|writing|quiet|q|silent|silence|decode-fds|decode-pids)=)?[!%?A-Za-z0-9_,./@-]+$`)
}}

// straceInner returns the command strace runs, judging -o's file; ok is
// false when an option is not known.
func (x *cmdCtx) straceInner(args []word) ([]word, bool) {
	for i := 0; i < len(args); i++ {
		a := args[i]
		v := a.val
		if !a.static {
			return nil, false
		}
		if v == "--" {
			return args[i+1:], i+1 < len(args)
		}
		if !strings.HasPrefix(v, "-") {
			return args[i:], true
		}
		if long, ok := strings.CutPrefix(v, "--"); ok {
			name, val, has := strings.Cut(long, "=")
			switch {
			case straceLong.has(name) && !has:
				continue
			case straceLongVal.has(name):
				if !has {
					if i+1 >= len(args) || !args[i+1].static {
						return nil, false
					}
					i++
					val = args[i].val
				}
				if !x.straceValue(name, val) {
					return nil, false
				}
				continue
			}
			return nil, false
		}
		// a bundle of short flags, the last of which may take a value
		for j := 1; j < len(v); j++ {
			c := v[j]
			if strings.IndexByte(straceFlags, c) >= 0 {
				continue
			}
			if strings.IndexByte(straceValued, c) < 0 {
				return nil, false
			}
			val := v[j+1:]
			if val == "" {
				if i+1 >= len(args) || !args[i+1].static {
					return nil, false
				}
				i++
				val = args[i].val
			}
			if !x.straceValue(string(c), val) {
				return nil, false
			}
			break
		}
	}
	return nil, false
}

// straceValue judges one option's value: -o writes a file, -P names a
// path it only filters on, -e must only choose what is printed, -s, -a,
// -O and -X take numbers or words.
func (x *cmdCtx) straceValue(opt, val string) bool {
	switch opt {
	case "o", "output":
		if strings.HasPrefix(val, "|") || strings.HasPrefix(val, "!") {
			return false // -o '|cmd' pipes the trace into a command
		}
		x.writeStr(val)
		return true
	case "e":
		return straceExpr.get().MatchString(val)
	case "P", "trace-path":
		return val != ""
	}
	return plainToken(val) || straceExpr.get().MatchString(opt+"="+val)
}

// bearInner returns the build command bear runs (bear [--output FILE]
// [--append] [--verbose] -- CMD…, or bear 2's bear CMD…), judging the
// file it writes; ok is false for any other option.
func (x *cmdCtx) bearInner(args []word) ([]word, bool) {
	for i := 0; i < len(args); i++ {
		a := args[i]
		v := a.val
		if !a.static {
			return nil, false
		}
		switch {
		case v == "--":
			return args[i+1:], i+1 < len(args)
		case !strings.HasPrefix(v, "-"):
			return args[i:], true
		case v == "--append" || v == "-a" || v == "--verbose":
		case v == "--output" || v == "-o":
			if i+1 >= len(args) || !args[i+1].static {
				return nil, false
			}
			i++
			x.writeStr(args[i].val)
		case strings.HasPrefix(v, "--output="):
			x.writeStr(strings.TrimPrefix(v, "--output="))
		default:
			return nil, false
		}
	}
	return nil, false
}
