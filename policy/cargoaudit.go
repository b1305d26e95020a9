package policy

import "strings"

// `cargo audit` (rustsec's cargo-audit) reads Cargo.lock and reports the
// advisories of the crates it locks. It only reads the project; it fetches
// the RustSec advisory database (a git clone from GitHub into
// ~/.cargo/advisory-db) before it looks. Inside the sandbox that fetch goes
// through the egress proxy and the clone lands in the sandbox's own home,
// so it is allowed as the project's everyday check; with the sandbox off
// it writes its own cache in the person's home, as cargo build writes
// ~/.cargo/registry, and is allowed unless a file of the workspace
// redirects it (.cargo/audit.toml, registryquery_off.go).
// `cargo audit fix` rewrites the manifest, --db / --url choose where the
// database comes from and goes: those ask in every mode.

// cargoAuditFlags change only what is reported.
var cargoAuditFlags = wordSet{words: []string{"-q", "--quiet", "-n", "--no-fetch", "--json", "--stale", "-d", "--deny",
	"--ignore", "--ignore-source", "--ignore-yanked", "--target-arch", "--target-os", "-c", "--color", "-f", "--file",
	"--no-local-crates", "-b", "--show-tree", "-v", "--version", "--format"}}

// cargoAuditValued take the next word as their value.
var cargoAuditValued = wordSet{words: []string{"-d", "--deny", "--ignore", "--target-arch", "--target-os", "-c", "--color", "-f", "--file", "--format"}}

func cargoAudit(x *cmdCtx, rest []word) {
	seen := false
	for i := 0; i < len(rest); i++ {
		v := rest[i].val
		if !seen && v == "audit" {
			seen = true
			continue
		}
		if !seen {
			continue
		}
		if !rest[i].static {
			x.add(Ask, RuleShellDynamicArg, "a cargo audit argument comes from an expansion")
			return
		}
		name, val, has := strings.Cut(v, "=")
		if !cargoAuditFlags.has(name) {
			x.add(Ask, RuleUnknownCommand, "cargo audit "+v+" is not a form the policy knows (fix rewrites the manifest; --db and --url choose the advisory database)")
			return
		}
		if !has && cargoAuditValued.has(name) && i+1 < len(rest) {
			i++
			val = rest[i].val
		}
		if name == "-f" || name == "--file" {
			x.readStr(val)
		}
	}
	x.inWorkspace()
	if x.registryReadOff("cargo", "cargo audit") { // registryquery_off.go: its own cache, as cargo build's ~/.cargo/registry
		return
	}
	x.sandboxedCode("cargo audit checks Cargo.lock against the RustSec advisory database, fetched through the sandbox's proxy",
		RuleNetTool, "cargo audit fetches the RustSec advisory database into the home directory, and the sandbox is off")
}
