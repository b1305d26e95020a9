package policy

import "strings"

// denoRemoteModule says a deno module specifier names code deno fetches or
// carries inline rather than a file of the project: any URL-like specifier
// (https://…, npm:pkg, jsr:@scope/pkg, data:…), as `npx -y pkg` is. A
// one-letter scheme is a Windows drive (C:\x.ts), a path.
func denoRemoteModule(v string) bool {
	i := strings.IndexByte(v, ':')
	if i < 2 {
		return false
	}
	for j, r := range v[:i] {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || j > 0 && (r >= '0' && r <= '9' || r == '+' || r == '-' || r == '.')) {
			return false
		}
	}
	return true
}

// denoValueOpts are deno run's options that take the next word as their
// value (--config x.json): that word is no module.
var denoValueOpts = []string{"config", "import-map", "lock", "cert", "location", "seed", "env-file", "frozen", "node-modules-dir", "vendor", "ext", "watch-exclude"}

// denoFetchedRun reads deno run's words: remote says the module is not a
// project file (none at all, or one deno fetches); judged says an npm:
// package was judged here as a fetch-and-run (fetchrun.go). A remote
// module not judged is left to the deno handler, which asks.
func denoFetchedRun(x *cmdCtx, rest []word) (remote, judged bool) {
	ops := operands(rest, "c", denoValueOpts)
	if len(ops) == 0 {
		return true, false
	}
	if !denoRemoteModule(ops[0].val) {
		return false, false
	}
	return true, denoNpmRun(x, rest)
}

// denoRunsFetched: deno run FILE runs the project's file unless the module
// is one deno fetches (https://, npm:, jsr:, data:) or missing; then an
// npm: package is judged as a fetch-and-run and the rest go to ask (the
// deno handler), and it reports true.
func denoRunsFetched(x *cmdCtx, rest []word, ask func()) bool {
	remote, judged := denoFetchedRun(x, rest)
	if remote && !judged {
		ask()
	}
	return remote
}
