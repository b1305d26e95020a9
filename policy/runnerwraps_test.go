package policy

import "testing"

// TestRunnerWrapsAreJudgedByWhatTheyRun: a runner (npx, pnpm dlx/exec,
// npm exec, uvx, pipx run, conda/pipenv/rye run, corepack) that starts a
// denied command is denied, in both sandbox modes; the runner's own
// judgment of everyday tools is unchanged (polcorp6 probe/runner-wraps,
// probe/publish-module, spell/publish).
func TestRunnerWrapsAreJudgedByWhatTheyRun(t *testing.T) {
	var cases []modeCase
	for _, l := range []string{
		"npx rimraf ~", "pnpm exec rimraf ~", "npm exec -- rm -rf ~", "bunx rimraf@5 ~/.ssh",
		"npx semantic-release", "pnpm dlx semantic-release", "npm exec -- semantic-release", "npx changeset publish",
		"npx lerna publish from-package --yes", "npx np --yes", "npx release-it --ci", "npx jsr publish",
		"npx @changesets/cli publish", "yarn dlx semantic-release@24",
		"uvx twine upload dist/*", "pipx run twine upload dist/*", "uv tool run twine upload dist/*",
		"conda run -n base twine upload dist/*", "pipenv run twine upload dist/*", "rye run twine upload dist/*",
		"pipenv run python -m twine upload dist/*", "poetry run twine upload dist/*", "bundle exec gem push x.gem",
		"mise exec -- npm publish", "nix shell nixpkgs#nodejs -c npm publish",
		`npx -y node -e "require('child_process').execSync('npm publish')"`,
		"npx npm publish", "corepack pnpm publish",
	} {
		cases = append(cases, modeCase{l, "deny", "deny"})
	}
	cases = append(cases,
		modeCase{"npx tsc --noEmit", "allow", "ask"},
		modeCase{"uv run pytest -q", "allow", "allow"},
		modeCase{"bundle exec rspec", "allow", "allow"},
		modeCase{"npx cowsay hi", "ask", "ask"},
		modeCase{"rimraf dist", "allow", "allow"},
	)
	checkModes(t, cases)
}
