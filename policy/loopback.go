package policy

import "strings"

// Loopback forms of network tools inside the sandbox, beside localCurl
// (ecosystems_tools.go): wget printing a page of a server the coder
// started (wget -qO- http://localhost:5173), and nc's port probe
// (nc -z localhost 5432), which sends nothing. A port operand is a port,
// not a host written as a number (ports).

// localWget allows, inside the sandbox, wget -q -O - (or -qO-) of a
// loopback URL: the page goes to standard output, nothing is written,
// sent or followed elsewhere.
func localWget(prev handler) handler {
	return func(x *cmdCtx, args []word) {
		if !wgetLocalGet(args[1:]) || x.personsLoopback() && !hostLoopbackRead(args[1:]) { // hostloopback.go
			prev(x, args)
			return
		}
		x.add(Allow, RuleLocalHealth, "wget reads from a server on "+x.loopbackWhere())
	}
}

func wgetLocalGet(args []word) bool {
	urls, stdout := 0, false
	for i := 0; i < len(args); i++ {
		a := args[i]
		if !a.static {
			return false
		}
		switch v := a.val; {
		case v == "-q" || v == "--quiet" || v == "-S" || v == "--server-response" || v == "--spider" || v == "-nv" || v == "--no-verbose":
			if v == "--spider" {
				stdout = true // fetches nothing to keep
			}
		case v == "-qO-" || v == "-O-" || v == "--output-document=-":
			stdout = true
		case v == "-n" && i+1 < len(args) && args[i+1].val == "v": // -nv as getopt reads it
			i++
		case v == "-O" && i+1 < len(args) && args[i+1].val == "-":
			i++
			stdout = true
		case (v == "-T" || v == "--timeout" || v == "-t" || v == "--tries") && i+1 < len(args) && isDigits(args[i+1].val):
			i++
		case strings.HasPrefix(v, "--timeout=") || strings.HasPrefix(v, "--tries="):
		case strings.HasPrefix(v, "-"):
			return false
		default:
			if !loopbackURL(v) {
				return false
			}
			urls++
		}
	}
	return urls > 0 && stdout
}

// localProbe allows, inside the sandbox, nc -z (connect and close, send
// nothing) to the loopback.
func localProbe(prev handler) handler {
	return func(x *cmdCtx, args []word) {
		if !ncLoopbackProbe(args[1:]) { // sends nothing: with the sandbox off too (hostloopback.go)
			prev(x, args)
			return
		}
		x.add(Allow, RuleLocalHealth, args[0].val+" -z checks a port on "+x.loopbackWhere())
	}
}

func ncLoopbackProbe(args []word) bool {
	z, host := false, false
	for i := 0; i < len(args); i++ {
		a := args[i]
		if !a.static {
			return false
		}
		v := a.val
		switch {
		case v == "-z" || v == "-zv" || v == "-vz" || v == "-v" || v == "-n" || v == "-4" || v == "-6":
			z = z || strings.Contains(v, "z")
		case v == "-w" && i+1 < len(args) && isDigits(args[i+1].val):
			i++
		case strings.HasPrefix(v, "-"):
			return false
		case !host:
			if !loopbackHost(v) {
				return false
			}
			host = true
		default:
			if !portSpec(v) {
				return false
			}
		}
	}
	return z && host
}

// portSpec: a port (1-65535) or a range of them (8000-8010).
func portSpec(v string) bool {
	lo, hi, rng := strings.Cut(v, "-")
	ok := func(s string) bool {
		if s == "" || len(s) > 5 || !isDigits(s) {
			return false
		}
		n := 0
		for _, c := range s {
			n = n*10 + int(c-'0')
		}
		return n >= 1 && n <= 65535
	}
	return ok(lo) && (!rng || ok(hi))
}

// ncValued are nc's options that take the next word as their value.
var ncValued = wordSet{words: []string{"-w", "-i", "-p", "-s", "-q", "-X", "-x", "-O", "-I", "-T", "-V", "-M", "-m", "-P"}}

// ncAddress are the valued options whose value is an address.
var ncAddress = wordSet{words: []string{"-x", "-s"}}

// portOperands returns nc's arguments without its port operands (every
// operand after the first, the host, that is a port) and the numeric
// values of its options (-w 5, -p 8080). netHosts would read
// a bare number as a host written as a decimal address.
func portOperands(name string, args []word) []word {
	switch name {
	case "nc", "ncat", "netcat", "telnet":
	default:
		return args
	}
	var out []word
	host := false
	for i := 0; i < len(args); i++ {
		w := args[i]
		if ncValued.has(w.val) && i+1 < len(args) {
			if ncAddress.has(w.val) {
				out = append(out, w, args[i+1]) // -x proxy:port, -s source: addresses, still judged
			}
			i++ // -w 5, -p 8080: a number, neither host nor operand
			continue
		}
		if !strings.HasPrefix(w.val, "-") {
			if host && w.static && portSpec(w.val) {
				continue
			}
			host = true
		}
		out = append(out, w)
	}
	return out
}

// numericLong are curl's and wget's long options whose value is a number
// (a timeout, a count, a rate): the number is no host.
var numericLong = wordSet{words: []string{"--timeout", "--tries", "--wait", "--waitretry", "--connect-timeout",
	"--read-timeout", "--dns-timeout", "--level", "--max-redirect", "--cut-dirs", "--quota", "--limit-rate",
	"--max-time", "--retry", "--retry-delay", "--retry-max-time", "--max-redirs", "--max-filesize",
	"--speed-time", "--speed-limit", "--expect100-timeout", "--keepalive-time", "--parallel-max", "--rate"}}

// fetchOperands is args without the numbers that are an option's value
// (wget -T 5, curl -m 10, curl --retry 3), read with the program's
// short-option table: they are no hosts written as numbers. Every other
// word, an address-valued option's value included, is still judged.
func fetchOperands(name string, args []word) []word {
	t, ok := shortOpts.get()[name]
	if !ok {
		return args
	}
	var out []word
	for i := 0; i < len(args); i++ {
		w := args[i]
		out = append(out, w)
		if !w.static || i+1 >= len(args) || !numericValue(args[i+1].val) {
			continue
		}
		short := len(w.val) == 2 && w.val[0] == '-' && w.val[1] != '-' && strings.IndexByte(t.args, w.val[1]) >= 0
		if short || numericLong.has(w.val) {
			i++ // the option's number
		}
	}
	return out
}

// numericValue is a count or a duration: digits, with a fraction or one
// unit letter (5, 2.5, 30s, 10m).
func numericValue(v string) bool {
	v = strings.TrimRight(v, "smhdkKMG")
	whole, frac, _ := strings.Cut(v, ".")
	return isDigits(whole) && (frac == "" || isDigits(frac))
}
