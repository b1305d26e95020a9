package policy

import "testing"

// TestMonorepoTaskRunners: turbo, nx and lerna are one class. Inside the
// sandbox a plain run of the packages' own targets or scripts is allowed
// as npm run is; their own commands, remote-cache and output options,
// publishing-sounding tasks ask; with the sandbox off a plain run is the
// project's code as make test is (projectrunners_off.go) unless a remote
// cache is configured; listing is read-only
// (polcorp10: nx build portal, from iflastandards/standards-dev's
// CLAUDE.md; it asked as an unknown program while turbo was allowed).
func TestMonorepoTaskRunners(t *testing.T) {
	checkOnOff(t, []onOff{
		{"nx build portal", Allow, Allow},
		{"nx run web:test", Allow, Allow},
		{"nx run web:build:production", Allow, Allow},
		{"nx affected -t test", Allow, Allow},
		{"nx run-many -t build lint -p web api", Allow, Allow},
		{"nx test web --skip-nx-cache --output-style=stream", Allow, Allow},
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
		{"lerna run test", Allow, Allow},
		{"lerna run build --scope @app/web", Allow, Allow},
		{"lerna run test --stream -- --coverage", Allow, Allow},
		{"lerna list", Allow, Allow},
		{"lerna ls --json", Allow, Allow},
		{"lerna exec -- rm -rf node_modules", Ask, Ask},
		{"lerna publish", Deny, Deny},
		{"lerna version patch", Ask, Ask},
		{"lerna bootstrap", Ask, Ask},
		{"lerna test", Ask, Ask},
		{"lerna run release", Ask, Ask},
		{"turbo run build", Allow, Allow},
		{"turbo build --filter=web", Allow, Allow},
		{"turbo login", Ask, Ask},
		{"turbo run deploy", Ask, Ask},
		{"turbo run build --token=x", Ask, Ask},
	})
}
