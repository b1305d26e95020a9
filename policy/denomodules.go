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
