package policy

import "testing"

// TestPackageManagerOptionArity: a global option of a package manager is
// read with the arity the tool gives it. pnpm's -w is --workspace-root, a
// flag; reading it as npm's -w NAME took the subcommand as its value, so
// `pnpm -w dlx PKG` (registry code) and `pnpm -w add PKG` were allowed as
// "the project's own script". pnpm's -F is --filter and takes a package
// (polcorp10: pnpm -F web test, from Markimg22/monorepo's CLAUDE.md).
func TestPackageManagerOptionArity(t *testing.T) {
	checkOnOff(t, []onOff{
		{"pnpm -w dlx cowsay", Ask, Ask},
		{"pnpm --workspace-root dlx cowsay", Ask, Ask},
		{"pnpm -w add lodash", Ask, Ask},
		{"pnpm -w -r add lodash", Ask, Ask},
		{"yarn -w add lodash", Ask, Ask},
		{"yarn -w dlx cowsay", Ask, Ask},
		{"bun -w add lodash", Ask, Ask},
		{"bun -w x cowsay", Ask, Ask},
		{"pnpm -w exec rm -rf ~", Deny, Deny},
		{"pnpm -w publish", Deny, Deny},
		{"pnpm -F web dlx cowsay", Ask, Ask},
		{"pnpm -F web publish", Deny, Deny},
		{"pnpm -F web add zod", Ask, Ask},
		{"pnpm -w lint", Allow, Allow},
		{"pnpm -w test", Allow, Allow},
		{"pnpm -F web test", Allow, Allow},
		{"pnpm -F @repo/ui run build", Allow, Allow},
		{"pnpm -F web -F api test", Allow, Allow},
		{"npm -w packages/api test", Allow, Allow},
		{"npm --workspace packages/api run build", Allow, Allow},
	})
}
