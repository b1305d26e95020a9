package policy

import "testing"

// Loading the project's schema inside the sandbox's disposable copy is
// the test suite's first step (dbschema.go): the only database it reaches
// is the copy's own. In place, with the sandbox off, with a database named
// on the line or another environment it asks; drops and empties ask in
// every mode.
func TestSchemaLoadInTheSandboxCopy(t *testing.T) {
	checkModes(t, []modeCase{
		{"bin/rails db:create db:schema:load db:seed", "allow", "ask"},
		{"RAILS_ENV=test bin/rails db:create db:schema:load", "allow", "ask"},
		{"bin/rails db:schema:load RAILS_ENV=test", "allow", "ask"},
		{"bundle exec rails db:create db:schema:load", "allow", "ask"},
		{"bin/rails db:setup", "allow", "ask"},
		{"RAILS_ENV=production bin/rails db:schema:load", "ask", "ask"},
		{"bin/rails db:schema:load RAILS_ENV=staging", "ask", "ask"},
		{"DATABASE_URL=postgres://db.example/app bin/rails db:schema:load", "ask", "ask"},
		{"env DATABASE_URL=x bin/rails db:setup", "ask", "ask"},
		{"export DATABASE_URL=postgres://db.example/app && bin/rails db:schema:load", "ask", "ask"},
		{"DISABLE_DATABASE_ENVIRONMENT_CHECK=1 bin/rails db:schema:load", "ask", "ask"},
		{"bin/rails db:schema:load SCHEMA=/tmp/x.rb", "ask", "ask"},
		{"bin/rails db:drop", "ask", "ask"},
		{"bin/rails db:reset", "ask", "ask"},
		{"bin/rails db:create db:drop", "ask", "ask"},
		{"bundle exec rake db:drop:all", "ask", "ask"},
		{"python manage.py flush --noinput", "ask", "ask"},
	})
	ctx := testEnv(t)
	ctx.Sandboxed, ctx.InPlace = true, true
	l := "bin/rails db:create db:schema:load db:seed"
	if v := Default().Check(Query{Kind: KindShell, Command: l, Context: ctx}); v.Decision == Allow {
		t.Errorf("in place: %q allowed by %s (%s)", l, v.Rule, v.Reason)
	}
}

// A dated folder, a test-output formatter and
// xargs feeding names to an npx-run linter (everyday_reads.go,
// wrappers.go): everyday reads agents issue, with the neighbours that
// still ask.
func TestEverydayReadsOfAgents(t *testing.T) {
	checkModes(t, []modeCase{
		{"ls .codex-logs/$(date +%F)/", "allow", "allow"},
		{"ls logs/$(date +%Y%m%d-%H%M%S)", "allow", "allow"},
		{"ls logs/$(date +'%F %T')", "ask", "ask"},
		{"ls $(date +%c)", "ask", "ask"},
		{"rm -rf logs/$(date +%D)", "!allow", "!allow"}, // 12/06/26: folders
		{"ls logs/$(date +%e)", "ask", "ask"},           // " 6": a blank
		{"rm -rf src/$(date +/..)", "!allow", "!allow"},
		{"less README.md", "ask", "ask"}, // a terminal lets the coder type !cmd

		{"less '+!id' README.md", "ask", "ask"},
		{"less -o /tmp/log README.md", "ask", "ask"},
		{"less -k keys README.md", "ask", "ask"},

		{"LESSOPEN='|rm -rf ~ %s' less README.md", "!allow", "!allow"},
		{"swift test 2>&1 | xcpretty", "allow", "allow"},
		{"xcodebuild test 2>&1 | xcpretty -r junit -o build/report.xml", "allow", "allow"},
		{"swift test 2>&1 | xcpretty -r junit --output ~/.bashrc", "deny", "deny"},
		{"swift test | xcpretty --frobnicate", "ask", "ask"},
		{"git diff --name-only | xargs -r npx eslint", "allow", "allow"}, // off31: eslint is in offtools.toml
		{"git diff --name-only | xargs npx cowsay", "ask", "ask"},
		{"git diff --name-only | xargs npx -y cowsay", "ask", "ask"},
	})
}

// rails runner 'CODE' inside the sandbox's disposable copy is judged as
// ruby -e CODE (dbschema.go railsRunner); in place, with the sandbox off,
// another environment or a script it asks.
func TestRailsRunnerInTheSandboxCopy(t *testing.T) {
	checkModes(t, []modeCase{
		{"bundle exec rails runner 'puts User.count'", "allow", "ask"},
		{"rails runner 'puts User.count'", "allow", "ask"},
		{`bundle exec rails runner 'system("rm -rf ~")'`, "deny", "ask"},
		{"bundle exec rails runner '`id`'", "ask", "ask"},
		{`bundle exec rails runner 'File.write("/etc/x", "y")'`, "deny", "ask"}, // a write outside the workspace (codewritepaths.go)
		{`bundle exec rails runner 'puts ENV["SECRET_KEY_BASE"]'`, "ask", "ask"},
		{"bundle exec rails runner -e production 'puts User.count'", "ask", "ask"},
		{"bundle exec rails runner script/x.rb", "ask", "ask"},
	})
	ctx := testEnv(t)
	ctx.Sandboxed, ctx.InPlace = true, true
	l := "bundle exec rails runner 'puts User.count'"
	if v := Default().Check(Query{Kind: KindShell, Command: l, Context: ctx}); v.Decision == Allow {
		t.Errorf("in place: %q allowed by %s (%s)", l, v.Rule, v.Reason)
	}
}
