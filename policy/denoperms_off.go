package policy

import "strings"

// deno's permission flags with the sandbox off (issue 32, off28).
//
// deno runs the project's code with no permission unless a flag grants
// one. With the sandbox off `npm test` runs the project's code with every
// permission the person has, and `deno test -A` is already allowed as the
// project's own test; so a flag that grants less than -A is the project's
// test or program too: `deno test --allow-read --allow-env tests/`,
// `deno run --allow-net=localhost:8000 server.ts`. A flag whose value
// names a place or host is judged by what it names:
//
//   - --allow-read=P,… and --allow-write=P,… name places the code reads
//     or writes: judged as reads and writes of those paths (outside the
//     workspace asks);
//   - --allow-net=H,… must name only loopback hosts (a remote host named
//     on the line is the network beyond loopback: deno's handler asks);
//   - --allow-run (bare or naming programs) and a bare --allow-ffi are
//     allowed off, and --allow-ffi=P,… is judged as reads of the
//     libraries it names (off29, the lead's question: `deno test -A`
//     was allowed off while `--allow-run` asked). -A grants both, and the
//     project's code under `npm test`, `node scripts/x.js` or `go test`
//     spawns programs and loads native code with every permission the
//     person has, all allowed off; a flag that grants less than -A cannot
//     be the riskier line. What a flag names is still judged: a path
//     outside the workspace or a remote host asks, as before. (off28 kept
//     them asking because they "say what the code does"; but the code is
//     the project's either way, and -A says it too.)
//
// Inside the sandbox every permission flag is dropped (buildplaces.go),
// so off stays no looser than on.

// denoPermissionOff judges v, a word starting --allow, with the sandbox
// off: true when it is judged here and can be dropped; false for any
// other spelling (an abbreviation, an unknown
// flag), which asks. A bare --allow-net or --allow-write followed by an
// operand asks too: a reader may take the operand as the flag's value
// (--allow-net paste.example.org).
func (x *cmdCtx) denoPermissionOff(v string, after []word) bool {
	name, val, has := strings.Cut(v, "=")
	switch name {
	case "--allow-env", "--allow-sys", "--allow-hrtime", "--allow-scripts", "--allow-run":
		return true
	case "--allow-ffi":
		if !has {
			return true
		}
		for _, p := range strings.Split(val, ",") {
			if p == "" {
				return false
			}
			x.readStr(p)
		}
		return true
	case "--allow-net":
		if !has {
			return !valueNext(after)
		}
		for _, h := range strings.Split(val, ",") {
			if !loopbackHostPort(h) {
				return false
			}
		}
		return true
	case "--allow-read", "--allow-write":
		if !has {
			return name == "--allow-read" || !valueNext(after)
		}
		for _, p := range strings.Split(val, ",") {
			if p == "" {
				return false
			}
			if name == "--allow-read" {
				x.readStr(p)
			} else {
				x.capturing(func() { x.writeStr(p) })
			}
		}
		return true
	}
	return false
}

// valueNext: the next word is an operand, not an option.
func valueNext(after []word) bool {
	return len(after) > 0 && !strings.HasPrefix(after[0].val, "-")
}
