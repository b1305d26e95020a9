package policy

import "strings"

// Loading the project's schema into its database — `bin/rails db:create
// db:schema:load db:seed`, `RAILS_ENV=test bin/rails db:setup`, `rake
// db:test:prepare` — builds the database the project's own schema file
// describes, the test suite's first step. Inside the sandbox, in a
// disposable copy, the only database it can reach is one in the copy (a
// SQLite file) or one started inside the sandbox: no host socket is
// mounted and the only network is the egress proxy, an HTTP proxy no
// database driver speaks. There it is the build's own work. In place, with
// the sandbox off, with a database named on the line (DATABASE_URL, any
// *_URL or *_HOST) or an environment that is not development or test
// (RAILS_ENV=production, DISABLE_DATABASE_ENVIRONMENT_CHECK) it still
// asks, as databasesOutsideTheCopy says. A drop or an empty (db:drop,
// db:reset, db:purge, db:truncate_all, flush, migrate:fresh, ecto.reset)
// asks in every mode: destroying data is all it does, and a person
// decides that.

// schemaLoads are the rails/rake tasks that build a database from the
// project's schema (dropping the tables they recreate).
var schemaLoads = wordSet{words: []string{"db:schema:load", "db:setup", "db:structure:load", "db:test:prepare",
	"db:test:load_schema", "db:test:load", "db:prepare"}}

// sandboxSchemaLoad reports whether p only loads the project's schema
// into a database the sandbox holds (see above).
func (c *checkEnv) sandboxSchemaLoad(p Part) bool {
	if !c.sandbox || c.inPlace || len(p.Argv) == 0 {
		return false
	}
	if l := strings.ToUpper(c.line); strings.Contains(l, "DATABASE") || strings.Contains(l, "_URL") || strings.Contains(l, "_HOST") {
		return false // a database the line names or exports
	}
	argv := p.Argv
	for len(argv) > 2 && baseName(argv[0]) == "bundle" && argv[1] == "exec" {
		argv = argv[2:]
	}
	if prog := baseName(argv[0]); prog != "rails" && prog != "rake" {
		return false
	}
	for _, a := range argv[1:] {
		if !strings.HasPrefix(a, "db:") {
			if !envWord(a) {
				return false // an option or a task this does not know
			}
			continue
		}
		if !schemaLoads.has(a) && a != "db:create" && a != "db:seed" && a != "db:migrate" && a != "db:version" {
			return false // db:drop, db:reset, db:purge, …
		}
	}
	for _, as := range p.Assigns {
		if !envWord(as) {
			return false
		}
	}
	return true
}

// envWord: a rails/rake argument or prefix that names the development or
// test environment (RAILS_ENV=test), nothing else.
func envWord(a string) bool {
	name, val, ok := strings.Cut(a, "=")
	if !ok {
		return false
	}
	switch name {
	case "RAILS_ENV", "RACK_ENV":
		return val == "test" || val == "development"
	}
	return false
}

// railsRunner: `rails runner 'puts User.count'` runs Ruby with the
// application loaded. Inside the sandbox, in a disposable copy, the
// database it reaches is the copy's own (as for a schema load above), so
// the snippet is judged as `ruby -e` is (rubyinline.go); in place, with the
// sandbox off, another environment (-e production) or a script file it is
// left to ask. It reports whether it judged the words.
func railsRunner(x *cmdCtx, rest []word) bool {
	if !x.c.sandbox || x.c.inPlace || len(rest) != 1 || !rest[0].static {
		return false
	}
	code := rest[0].val
	if strings.HasPrefix(code, "-") || strings.HasSuffix(code, ".rb") || strings.Contains(strings.ToUpper(code), "ENV") {
		return false
	}
	if tok := rubyRiskyToken(code); tok != "" {
		x.codeRisks("rails runner", code)
		x.add(Ask, RuleInterpInline, "rails runner runs inline code that uses "+quoteShort(tok))
		return true
	}
	x.inlineCode("rails runner", code)
	return true
}
