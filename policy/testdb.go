package policy

import "strings"

// Resetting the test database (issue 32, polcorp6 class E7): `MIX_ENV=test
// mix ecto.reset` and `RAILS_ENV=test rails db:reset` drop and rebuild
// the database the test suite uses, which the suite itself creates, fills
// and truncates on every run: it holds nothing of the person's. The test
// environment must be chosen on the line, by an assignment to the
// framework's environment variable (a prefix, or rake's NAME=value
// argument); a line that names a database itself (DATABASE_URL, *_HOST,
// *_URL) or any other environment asks as before, and so does every drop
// in place, where the databases are the person's machine's.

// testEnvValue: the variable that selects each framework's environment.
func testEnvValue(name string) (string, bool) {
	switch name {
	case "MIX_ENV", "RAILS_ENV", "RACK_ENV":
		return "test", true
	case "APP_ENV":
		return "testing", true
	}
	return "", false
}

// resetsTestDatabase: part p drops only the test environment's database.
func (c *checkEnv) resetsTestDatabase(p Part) bool {
	if c.inPlace || len(p.Argv) == 0 {
		return false
	}
	if l := strings.ToUpper(c.line); strings.Contains(l, "DATABASE") || strings.Contains(l, "_URL") || strings.Contains(l, "_HOST") {
		return false
	}
	argv := p.Argv
	for len(argv) > 2 && baseName(argv[0]) == "bundle" && argv[1] == "exec" {
		argv = argv[2:]
	}
	switch baseName(argv[0]) {
	case "mix", "rails", "rake":
	default:
		return false
	}
	test := false
	for _, as := range append(append([]string{}, p.Assigns...), argv[1:]...) {
		name, val, ok := strings.Cut(as, "=")
		if !ok {
			continue
		}
		want, known := testEnvValue(strings.ToUpper(name))
		if !known {
			continue
		}
		if val != want {
			return false // RAILS_ENV=production … RAILS_ENV=test: any other environment asks
		}
		test = true
	}
	return test
}
