package policy

import "path/filepath"

// Audit fixes are installs (issue 32, polcorp8 pkgtrick): npm audit fix
// (with or without --force), pnpm audit --fix, yarn npm audit --fix, bun
// audit --fix and pip-audit --fix rewrite package.json or the lockfile and
// install the versions they pick from the registry, running their install
// scripts: they are judged as installs (package.install asks), not as the
// read-only report npm audit prints.

// judgeAuditFix asks for an audit that fixes what it finds.
func (x *cmdCtx) judgeAuditFix(args []word) {
	prog := filepath.Base(args[0].val)
	rest := args[1:]
	switch prog {
	case "npm", "pnpm", "yarn", "bun":
		if prog == "yarn" && len(rest) > 0 && rest[0].val == "npm" {
			rest = rest[1:]
		}
		i := 0
		for i < len(rest) && len(rest[i].val) > 0 && rest[i].val[0] == '-' {
			i++
		}
		if i >= len(rest) || rest[i].val != "audit" {
			return
		}
		after := rest[i+1:]
		fix := hasOpt(after, "", "--fix")
		for _, w := range after {
			if w.val == "fix" {
				fix = true
			}
		}
		if fix {
			x.add(Ask, RulePkgInstall, prog+" audit fix rewrites package.json and the lockfile and installs from the registry")
		}
	case "pip-audit":
		if hasOpt(rest, "", "--fix") {
			x.add(Ask, RulePkgInstall, "pip-audit --fix upgrades the environment's packages from the index")
		}
	}
}
