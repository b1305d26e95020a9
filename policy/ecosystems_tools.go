package policy

import (
	"net/url"
	"strings"
)

// Read-only viewers and loopback health checks. Registered by
// addEcosystemHandlers (ecosystems.go).

// fdCmd is fd: a file finder. -x/-X run a command for each match: asked,
// and the command is judged as find -exec's is, once per search path with
// fd's placeholders ({}, {/}, {//}, {.}, {/.}) standing for a match below
// it (fd appends the match when the command names none), so
// `fd -x sh -c 'rm -rf ~'` is denied as its command is. A secret-file
// pattern searched for in home or / is denied as find -name id_rsa is.
func fdCmd(x *cmdCtx, args []word) {
	x.add(Allow, RuleReadOnly, "finds files")
	opts, execs := fdSplitExecs(args[1:]) // fdexec.go
	ops := operands(opts, "etdEcjSo", []string{"extension", "type", "max-depth", "min-depth", "exact-depth", "exclude",
		"color", "threads", "size", "changed-within", "changed-before", "owner", "ignore-file", "max-results", "base-directory", "search-path", "format"})
	starts := []word{{val: ".", static: true}}
	if len(ops) > 1 {
		starts = ops[1:]
	}
	if len(ops) > 0 && len(execs) > 0 {
		findSecrets(x, starts, []word{{val: "-name", static: true}, ops[0]})
	}
	pattern := ""
	if len(ops) > 0 {
		pattern = ops[0].val
	}
	if len(execs) > 0 && fdMayMatchSecrets(opts, pattern) {
		x.add(Ask, RuleToolExec, "fd -x may hand files that hold secrets (hidden, ignored or named so) to its command")
	}
	for _, inner := range execs {
		fdExecRisks(x, inner)
		fdJudgeExec(x, starts, inner)
	}
	for _, a := range opts {
		if v := a.val; len(v) > 2 && (strings.HasPrefix("--exec-batch", v) || strings.HasPrefix(v, "--exec")) || strings.HasPrefix(v, "--ignore-file") || strings.HasPrefix(v, "--base-directory") || strings.HasPrefix(v, "--search-path") || v == "-L" || v == "--follow" || fdFollowCluster(v) {
			x.add(Ask, RuleToolExec, "fd "+v+" follows links or reads from elsewhere")
			return
		}
	}
	for _, w := range starts {
		x.read(w)
	}
}

// fdJudgeExec judges one fd -x command per search path.
func fdJudgeExec(x *cmdCtx, starts, inner []word) {
	if len(inner) == 0 {
		return
	}
	placeholder := false
	for _, w := range inner {
		if strings.Contains(w.val, "{") && strings.Contains(w.val, "}") {
			placeholder = true
		}
	}

	for _, s := range starts {
		match := s.val + "/glob-match"
		argv := make([]word, 0, len(inner)+1)
		for _, w := range inner {
			if strings.Contains(w.val, "{") {
				w = word{val: strings.NewReplacer("{//}", s.val, "{/.}", "glob-match", "{/}", "glob-match", "{.}", match, "{}", match).Replace(w.val), static: w.static && s.static}
			}
			argv = append(argv, w)
		}
		if !placeholder {
			argv = append(argv, word{val: match, static: s.static})
		}
		x.nested(argv, "fd -x")
	}

}

// viewerCmd is bat or delta: it shows files or a diff. A pager or any
// option naming a program asks.
func viewerCmd(x *cmdCtx, args []word) {
	x.add(Allow, RuleReadOnly, args[0].val+" shows files")
	for _, a := range args[1:] {
		v := a.val
		if name, _, _ := strings.Cut(v, "="); len(name) >= 5 && (strings.HasPrefix("--pager", name) || strings.HasPrefix("--config", name)) || strings.HasPrefix(v, "--pager") || strings.HasPrefix(v, "--config") || strings.HasPrefix(v, "--diff-so-fancy") || strings.HasPrefix(v, "--hyperlinks") || strings.HasPrefix(v, "--features") || v == "--paging=always" {
			x.add(Ask, RuleToolExec, args[0].val+" "+v+" can run a pager or read configuration that does")
			return
		}
	}
	for _, w := range operands(args[1:], "lpHrmsw", []string{"language", "line-range", "highlight-line", "theme", "style", "map-syntax", "tabs", "wrap", "terminal-width", "width", "color", "paging", "decorations", "file-name"}) {
		x.read(w)
	}
}

// localCurl allows, inside the sandbox, a GET or HEAD of a server on the
// sandbox's own loopback (localhost, 127.0.0.1, [::1]): a health check of
// what the coder started. No upload, config, proxy, socket, redirect
// following or output file (-o, or a -w format's %output{FILE}): anything
// else goes to the network handler.
func localCurl(prev handler) handler {
	return func(x *cmdCtx, args []word) {
		if !localGet(args[1:]) || x.personsLoopback() && !hostLoopbackRead(args[1:]) { // hostloopback.go
			prev(x, args)
			return
		}
		x.add(Allow, RuleLocalHealth, "curl asks a server on "+x.loopbackWhere())
	}
}

// RuleLocalHealth allows a read of a loopback server inside the sandbox.
const RuleLocalHealth = "net.loopback-read"

func localGet(args []word) bool {
	urls, data := 0, false
	method := "GET"
	for i := 0; i < len(args); i++ {
		a := args[i]
		v := a.val
		if !a.static {
			return false
		}
		switch {
		case inlineData(args, i):
			data = true
			if !strings.HasPrefix(v, "-d") || v == "-d" {
				i++
			}
		case v == "-s" || v == "-S" || v == "-f" || v == "-i" || v == "-I" || v == "-v" || v == "--silent" || v == "--show-error" ||
			v == "--fail" || v == "--include" || v == "--head" || v == "--verbose" || v == "-sS" || v == "-fsS" || v == "-sf" ||
			v == "-fs" || v == "-sI" || v == "-Is" || v == "-sv" || v == "-si" || v == "--compressed" || v == "-k" || v == "--insecure" || v == "--fail-with-body":
		case (v == "-o" || v == "--output") && i+1 < len(args) && args[i+1].val == "/dev/null":
			i++
		case v == "-w" || v == "--write-out" || v == "-m" || v == "--max-time" || v == "--connect-timeout" || v == "--retry" || v == "--retry-delay" || v == "-H" || v == "--header" || v == "-X" || v == "--request":
			if i+1 >= len(args) || !args[i+1].static {
				return false
			}
			i++
			n := args[i].val
			if v == "-X" || v == "--request" {
				method = n
			}
			if (v == "-H" || v == "--header") && strings.HasPrefix(n, "@") {
				return false
			}
			if (v == "-w" || v == "--write-out") && (strings.HasPrefix(n, "@") || strings.Contains(n, "%output{")) {
				return false // a format read from a file, or one that writes a file (curl 8.3's %output{FILE})
			}
		case curlLoopbackFlag(v): // curlloopbackopts.go
		case i+1 < len(args) && curlLoopbackValued(v, args[i+1]):
			i++
		case strings.HasPrefix(v, "-"):
			return false
		default:
			if !loopbackURL(v) {
				return false
			}
			urls++
		}
	}
	// A request that changes the server carries the data it sends, seen
	// on the line (pol5: curl -X POST -d '{}' localhost:3000/api); one
	// with none (curl -X POST localhost:3000/shutdown) asks.
	switch method {
	case "GET", "HEAD":
	case "POST", "PUT", "PATCH":
		if !data {
			return false
		}
	default:
		return false
	}
	return urls > 0
}

// loopbackURL: an http(s) URL whose host is the loopback, with no user
// info.
func loopbackURL(v string) bool {
	if !strings.Contains(v, "://") && !strings.HasPrefix(v, "-") {
		v = "http://" + v // curl's default scheme: localhost:3000/health
	}
	if !strings.HasPrefix(v, "http://") && !strings.HasPrefix(v, "https://") {
		return false
	}
	u, err := url.Parse(v)
	if err != nil || u.User != nil || u.Opaque != "" {
		return false
	}
	switch u.Hostname() {
	case "localhost", "127.0.0.1", "::1", "0.0.0.0":
		return !strings.ContainsAny(u.Host, "@\\")
	}
	return false
}
