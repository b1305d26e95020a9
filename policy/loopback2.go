package policy

import "strings"

// More of the coder's own loopback inside the sandbox, beside localCurl's
// GET: the database and RPC clients' probes of a loopback server
// (pg_isready -h localhost, redis-cli -h 127.0.0.1 ping, grpcurl -plaintext
// localhost:50051 list) and httpie's GET of one (http :8000/api/items) are
// the same health checks. A request that changes the server (a POST, a
// data item, FLUSHALL) asks, as curl -X POST does (ecosystems_adversarial:
// curl -X POST http://localhost:3000/shutdown), unless it is curl's with
// its data written on the line (curl -X POST -d '{}' localhost:3000/api,
// an API check of the coder's own server; not in place); another host or any other
// option goes to the tool's own handler. With the sandbox off or in place,
// loopback is the person's machine: only httpie's GET is allowed there, as
// curl's is (hostloopback.go); every other form goes to the handler.

// loopbackHostPort: a host or host:port naming the loopback.
func loopbackHostPort(v string) bool {
	h := v
	if i := strings.LastIndexByte(v, ':'); i >= 0 && !strings.HasSuffix(v, "]") {
		if !isDigits(v[i+1:]) {
			return false
		}
		h = v[:i]
	}
	switch strings.Trim(h, "[]") {
	case "localhost", "127.0.0.1", "::1", "0.0.0.0":
		return true
	}
	return false
}

// localClient wraps a database or RPC client's handler: inside the
// sandbox, a probe of a loopback server is allowed.
func localClient(prev handler) handler {
	return func(x *cmdCtx, args []word) {
		if x.c.sandbox && !x.c.inPlace && localClientProbe(args) {
			x.add(Allow, RuleLocalHealth, args[0].val+" checks a server on the sandbox's own loopback")
			return
		}
		if x.personsLoopback() && !httpieName.has(args[0].val) && localClientProbe(args) && !grpcControlPlane(args) { // dbloopback_off.go
			x.add(Allow, RuleLocalHealth, args[0].val+" checks a server on "+x.loopbackWhere())
			return
		}
		if httpieName.has(args[0].val) && localClientProbe(args) && !httpieControlPlane(args[1:]) { // hostloopback.go
			x.add(Allow, RuleLocalHealth, args[0].val+" reads from a server on "+x.loopbackWhere())
			return
		}
		prev(x, args)
	}
}

// localClientProbe reads argv: every word static, the host named and on
// the loopback, and nothing but the probe.
func localClientProbe(args []word) bool {
	for _, a := range args {
		if !a.static {
			return false
		}
	}
	name, rest := args[0].val, args[1:]
	hostOK := false
	switch name {
	case "pg_isready":
		for i := 0; i < len(rest); i++ {
			switch v := rest[i].val; v {
			case "-h", "--host", "-p", "--port", "-t", "--timeout", "-d", "--dbname", "-U", "--username":
				if i+1 >= len(rest) {
					return false
				}
				i++
				if v == "-h" || v == "--host" {
					hostOK = loopbackHostPort(rest[i].val)
				}
			case "-q", "--quiet":
			default:
				return false
			}
		}
		return hostOK
	case "redis-cli", "valkey-cli":
		verb := ""
		for i := 0; i < len(rest); i++ {
			switch v := rest[i].val; {
			case v == "-h" || v == "-p":
				if i+1 >= len(rest) {
					return false
				}
				i++
				if v == "-h" {
					hostOK = loopbackHostPort(rest[i].val)
				}
			case strings.HasPrefix(v, "-") || verb != "":
				return false
			default:
				verb = strings.ToLower(v)
			}
		}
		return hostOK && (verb == "ping" || verb == "info" || verb == "dbsize")
	case "grpcurl":
		var ops []string
		for _, a := range rest {
			switch v := a.val; {
			case v == "-plaintext" || v == "--plaintext":
			case strings.HasPrefix(v, "-"):
				return false
			default:
				ops = append(ops, v)
			}
		}
		return len(ops) >= 2 && len(ops) <= 3 && loopbackHostPort(ops[0]) && (ops[1] == "list" || ops[1] == "describe")
	case "http", "https", "xh":
		urls := 0
		for _, a := range rest {
			switch v := a.val; {
			case v == "-v" || v == "--verbose" || v == "-h" || v == "--headers" || v == "-b" || v == "--body" || v == "GET" || v == "HEAD":
			case strings.HasPrefix(v, ":") && (len(v) == 1 || v[1] == '/' || isDigits(strings.SplitN(v[1:], "/", 2)[0])):
				urls++ // httpie's :PORT/path is localhost
			case loopbackURL(v) && !strings.HasPrefix(v, "-"):
				urls++
			default:
				return false // a data item (k=v, k:=v, @file), another host or option
			}
		}
		return urls == 1
	}
	return false
}

// inlineData reports whether args[i] is curl's data option with its
// value written on the line (-d '{}', -d'{}', --data-raw, --json): what is
// sent is seen. A value read from a file (-d @.env, --json @f,
// --data-urlencode name@file) or standard input is not inline.
func inlineData(args []word, i int) bool {
	v := args[i].val
	val, ok := "", false
	switch {
	case v == "-d" || v == "--data" || v == "--data-ascii" || v == "--data-binary" || v == "--data-raw" || v == "--json" || v == "--data-urlencode":
		if i+1 < len(args) && args[i+1].static {
			val, ok = args[i+1].val, true
		}
	case strings.HasPrefix(v, "-d") && len(v) > 2:
		val, ok = v[2:], true
	}
	if !ok {
		return false
	}
	switch {
	case v == "--data-raw":
		return true // @ is literal
	case v == "--data-urlencode":
		return !strings.ContainsAny(val, "@")
	}
	return !strings.HasPrefix(val, "@")
}

// sendsData reports whether curl's args send inline data: a request that
// may change the server, which in place is the person's, not the
// sandbox's.
func sendsData(args []word) bool {
	for i := range args {
		if inlineData(args, i) {
			return true
		}
	}
	return false
}
