package policy

import "testing"

// TestHostedDatabaseResets: a hosted database reset, restored or copied
// onto is overwritten, denied as a deletion is (polcorp11: heroku pg:reset
// DATABASE --confirm app asked as a remote tool); the local development
// database's reset and read-only forms keep their judgement.
func TestHostedDatabaseResets(t *testing.T) {
	checkOnOff(t, []onOff{
		{"heroku pg:reset DATABASE --confirm app", Deny, Deny},
		{"heroku pg:reset DATABASE_URL -a myapp --confirm myapp", Deny, Deny},
		{"heroku pg:backups:restore b101 DATABASE_URL --app myapp", Deny, Deny},
		{"heroku pg:copy myapp::DATABASE_URL HEROKU_POSTGRESQL_PINK -a other", Deny, Deny},
		{"heroku pg:push mylocaldb DATABASE_URL --app myapp", Deny, Deny},
		{"supabase db reset --linked", Deny, Deny},
		{"supabase db reset --db-url postgres://u:p@db.example:5432/postgres", Deny, Deny},
		{"neonctl branches reset main --parent", Deny, Deny},
		{"pscale database restore-dump mydb main --dir dump", Deny, Deny},
		{"supabase projects delete abcdefgh", Deny, Deny},
		{"railway down -y", Ask, Ask},
		{"supabase db reset", Ask, Ask},
		{"heroku pg:info -a myapp", Ask, Ask},
		{"heroku logs --tail -a myapp", Ask, Ask},
	})
}
