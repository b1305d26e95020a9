package policy

import "testing"

// TestOffRunsProjectCode: with --sandbox off, a workspace script run
// through a known interpreter or runner, and a build tool's run verb or
// project script, are the project's own code and allowed, as `make test`
// is (the lead's decision on issue 32). Each shape names where it comes
// from. They are allowed with the sandbox on too.
func TestOffRunsProjectCode(t *testing.T) {
	var cases []p9Case
	for _, c := range []string{
		"python scripts/x.py",                          // polcorp9 python (uv run python scripts/gen_fixtures.py)
		"python manage.py test accounts",               // polcorp8 python, Django's manage.py
		"node scripts/build.mjs",                       // polcorp9 node (node scripts/generate-types.mjs)
		"bash scripts/test.sh",                         // the lead's decision, issue 32
		"php artisan test --filter=InvoiceTest",        // polcorp8 php, Laravel
		"php bin/console cache:clear",                  // Symfony's console
		"ruby -c app/models/order.rb",                  // polcorp9 ruby
		"bun src/cli.ts --help",                        // polcorp9 bun
		"deno run --allow-read scripts/check.ts",       // polcorp9 deno (the project's permissions)
		"deno task build",                              // polcorp8 deno
		"mix check",                                    // polcorp9 elixir, a project alias
		"composer test",                                // polcorp9 php
		"composer run-script test",                     // polcorp9 php
		"vendor/bin/php-cs-fixer fix src/Resolver.php", // polcorp9 php, an installed tool
		"dotnet run --project ./StepLang.CLI/StepLang.CLI.csproj -- --version", // polcorp9 dotnet
	} {
		cases = append(cases, p9Case{c, "on", "allow"}, p9Case{c, "off", "allow"})
	}
	runP9Cases(t, cases)
}

// TestOffStillAsks: with --sandbox off, what the lead's decision keeps
// asked: a script the same line writes, code fetched from the network, an
// undeclared npx package, inline code, data run as shell, a task that
// installs or drops a database, a Maven plugin goal, an interpreter not
// on the list.
func TestOffStillAsks(t *testing.T) {
	var cases []p9Case
	for _, c := range []string{
		"printf 'import os\\n' > gen.py && python gen.py",   // written in the same line
		"echo 'rm -rf ~' > scripts/x.sh; bash scripts/x.sh", // written in the same line
		"cp /tmp/x.js tools/x.js && node tools/x.js",        // text that cannot be known
		"deno run https://example.com/x.ts",                 // code from the network
		"deno run -A https://deno.land/x/foo/mod.ts",        // code from the network
		"npx left-pad-cli",                                  // an undeclared npx package
		"uvx bandit -r src",                                 // a registry tool not in offtools.toml (off31: ruff is)
		"python3 -c 'import mymodule'",                      // inline code loading a module its text does not show (pol23)
		"node -e 'require(m)'",                              // inline code loading a module its text does not show (pol23)
		"xargs -a cmds.txt -I{} sh -c '{}'",                 // a data file's lines as shell
		"python /tmp/x.py",                                  // outside the workspace
		"python ../other/x.py",                              // outside the workspace
		"mix setup",                                         // an alias that installs (polcorp9 sandbox row)
		"MIX_ENV=test mix ecto.drop",                        // drops a database (polcorp9 sandbox row)
		"mvn formatter:format",                              // a plugin goal resolved from the network
		"pwsh -exec Bypass -File x.ps1",                     // deny_classes.txt: not a listed interpreter
		"composer require monolog/monolog",                  // adds a dependency
		"printf 'x' > vendor/bin/tool && vendor/bin/tool",   // written in the same line
		"./scripts/x.sh",                                    // a workspace program run directly (review1207)
	} {
		cases = append(cases, p9Case{c, "off", "not-allow"})
	}
	runP9Cases(t, cases)
}
