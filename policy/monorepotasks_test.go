package policy

import "testing"

// TestMonorepoTaskRunners: turbo, nx and lerna are one class. Inside the
// sandbox a plain run of the packages' own targets or scripts is allowed
// as npm run is; their own commands, remote-cache and output options,
// publishing-sounding tasks and the sandbox off ask, listing is read-only
// (polcorp10: nx build portal, from iflastandards/standards-dev's
// CLAUDE.md; it asked as an unknown program while turbo was allowed).
func TestMonorepoTaskRunners(t *testing.T) {
	checkOnOff(t, []onOff{
		{"nx build portal", Allow, Ask},
		{"nx run web:test", Allow, Ask},
		{"nx run web:build:production", Allow, Ask},
		{"nx affected -t test", Allow, Ask},
		{"nx run-many -t build lint -p web api", Allow, Ask},
		{"nx test web --skip-nx-cache --output-style=stream", Allow, Ask},
		{"nx show projects", Allow, Allow},
		{"nx show project web --web", Ask, Ask},
		{"nx --version", Allow, Allow},
		{"nx graph", Ask, Ask},
		{"nx graph --file=graph.html", Ask, Ask},
		{"nx release", Ask, Ask},
		{"nx release publish", Ask, Ask},
		{"nx migrate latest", Ask, Ask},
		{"nx add @nx/react", Ask, Ask},
		{"nx g @nx/react:lib ui", Ask, Ask},
		{"nx exec -- rm -rf ~", Ask, Ask},
		{"nx connect", Ask, Ask},
		{"nx build web --runner=cloud", Ask, Ask},
		{"nx deploy web", Ask, Ask},
		{`nx "$T" web`, Ask, Ask},
		{"nx", Ask, Ask},
		{"lerna run test", Allow, Ask},
		{"lerna run build --scope @app/web", Allow, Ask},
		{"lerna run test --stream -- --coverage", Allow, Ask},
		{"lerna list", Allow, Allow},
		{"lerna ls --json", Allow, Allow},
		{"lerna exec -- rm -rf node_modules", Ask, Ask},
		{"lerna publish", Deny, Deny},
		{"lerna version patch", Ask, Ask},
		{"lerna bootstrap", Ask, Ask},
		{"lerna test", Ask, Ask},
		{"lerna run release", Ask, Ask},
		{"turbo run build", Allow, Ask},
		{"turbo build --filter=web", Allow, Ask},
		{"turbo login", Ask, Ask},
		{"turbo run deploy", Ask, Ask},
		{"turbo run build --token=x", Ask, Ask},
	})
}
