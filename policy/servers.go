package policy

// A development server on loopback. Inside the sandbox the coder has a
// network namespace of its own, so a server bound to 127.0.0.1 or ::1 is
// reachable by nothing but the coder's own processes (its health checks,
// `curl -s http://127.0.0.1:8000/`): the project served to itself. Bound to
// every interface, or with the sandbox off, it asks (SECURITY.md: a server
// that listens never serves anyone without a credential).

// loopbackServer reports whether `python -m http.server ARGS` binds to
// loopback only, serves a directory inside the workspace, and runs inside
// the sandbox. Every argument must be one it knows.
func loopbackServer(x *cmdCtx, args []word) bool {
	if !x.c.sandbox {
		return false
	}
	bound := false
	var dirs []word
	for i := 0; i < len(args); i++ {
		a := args[i]
		if !a.static {
			return false
		}
		switch v := a.val; {
		case v == "-b" || v == "--bind":
			if i+1 >= len(args) || !loopbackHost(args[i+1].val) {
				return false
			}
			bound = true
			i++
		case v == "-d" || v == "--directory":
			if i+1 >= len(args) {
				return false
			}
			dirs = append(dirs, args[i+1])
			i++
		case v == "--protocol" && i+1 < len(args):
			i++
		case isPort(v):
		default:
			return false
		}
	}
	if !bound {
		return false
	}
	if len(dirs) == 0 { // it serves where it runs: after a cd, that may be anywhere
		dirs = append(dirs, word{val: ".", static: true})
	}
	for _, d := range dirs {
		x.read(d)
	}
	return true
}

func loopbackHost(h string) bool {
	return h == "127.0.0.1" || h == "localhost" || h == "::1" || h == "[::1]"
}

func isPort(v string) bool {
	if v == "" || len(v) > 5 {
		return false
	}
	for _, r := range v {
		if r < '0' || r > '9' {
			return false
		}
	}
	return true
}
