package policy

import "strings"

// Dropping a production database (issue 32, polcorp6 deny recall):
// `rails db:reset RAILS_ENV=production`, `RAILS_ENV=production rails
// db:drop`, `MIX_ENV=prod mix ecto.reset` name the production
// environment outright: the drop is meant for the live database, not a
// developer's, so it is denied rather than asked. A drop that names no
// environment, or a development or test one, keeps asking
// (databasesOutsideTheCopy).

// productionEnvs are the variables that pick a framework's environment.
var productionEnvs = wordSet{words: []string{"RAILS_ENV", "RACK_ENV", "MIX_ENV", "APP_ENV", "LARAVEL_ENV"}}

// productionDatabaseDrops raises a database drop that names the
// production environment to deny.
func (c *checkEnv) productionDatabaseDrops() {
	for i := range c.parts {
		p := &c.parts[i]
		if p.Rule != RuleDatabaseDrop || p.Decision != Ask {
			continue
		}
		if (productionNamed(p.Assigns) || productionNamed(p.Argv)) && dropVerb(p.Argv) {
			p.Decision = Deny
			p.Reason = "drops, flushes or resets the production database, which no review or checkpoint brings back"
		}
	}
}

// productionNamed reports words that select the production environment:
// RAILS_ENV=production, -e production, --environment=production, --env=prod.
func productionNamed(ws []string) bool {
	prod := func(v string) bool {
		v = strings.ToLower(strings.Trim(v, `"'`))
		return v == "production" || v == "prod"
	}
	for i, w := range ws {
		if k, v, ok := strings.Cut(w, "="); ok && (productionEnvs.has(k) || k == "--environment" || k == "--env" || k == "-e") && prod(v) {
			return true
		}
		if (w == "-e" || w == "--environment" || w == "--env") && i+1 < len(ws) && prod(ws[i+1]) {
			return true
		}
	}
	return false
}

// dropVerbs are the tasks that drop or empty a database outright (a
// schema load into production, which some deploys run, keeps asking).
var dropVerbs = wordSet{words: []string{"db:drop", "db:reset", "db:purge", "db:drop:all", "db:purge:all",
	"ecto.drop", "ecto.reset"}}

// dropVerb reports an argv naming one of dropVerbs.
func dropVerb(argv []string) bool {
	for _, a := range argv {
		if dropVerbs.has(a) {
			return true
		}
	}
	return false
}
