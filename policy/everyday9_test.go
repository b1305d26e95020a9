package policy

import "testing"

// TestEverydayMissesClosedAsClasses: bun NAME is bun run NAME, composer's
// bin-dir tools at bin/ are the project's own as vendor/bin's are, go tool
// pprof's text reports of a local profile, and cargo audit inside the
// sandbox (bunCmd, ecosystems.go rubyBinstubs, pprof.go, cargoaudit.go);
// the forms that run, fetch or write something else still ask or deny.
func TestEverydayMissesClosedAsClasses(t *testing.T) {
	ctx := testEnv(t)
	e := Default()
	rows := []struct{ cmd, on, off string }{
		{"bun tsc --noEmit", "allow", "allow"},
		{"bun vitest run", "allow", "allow"},
		{"bun lint", "allow", "allow"},
		{"bun deploy", "!allow", "!allow"},
		{"bun ./scripts/x.ts", "allow", "allow"}, // bunfiles.go: a project file, as node ./scripts/x.mjs (runFile)
		{"bin/pest", "allow", "allow"},           // a binstub is the tool it stands in for (projecttools.go)
		{"bin/phpunit --filter UserTest", "allow", "allow"},
		{"bin/console cache:clear", "allow", "ask"},
		{"vendor/bin/pest", "allow", "allow"},
		{"php artisan test", "allow", "allow"},
		{"bin/ls", "!allow", "!allow"},
		{"scripts/pest", "!allow", "!allow"},
		{"go tool pprof -top cpu.out | head -30", "allow", "allow"},
		{"go tool pprof -top -nodecount=20 ./bin/app cpu.out", "allow", "allow"},
		{"go tool pprof -list=Handler cpu.out", "allow", "allow"},
		{"go tool pprof cpu.out", "!allow", "!allow"},
		{"go tool pprof -http=:8080 cpu.out", "!allow", "!allow"},
		{"go tool pprof -top http://localhost:6060/debug/pprof/profile", "!allow", "!allow"},
		{"go tool pprof -top -symbolize=remote cpu.out", "!allow", "!allow"},
		{"go tool pprof -top -output=/etc/x cpu.out", "deny", "deny"},
		{"go tool pprof -top ~/.ssh/id_rsa", "!allow", "!allow"},
		{"cargo audit", "allow", "allow"}, // off: registryquery_off.go
		{"cargo audit --json --deny warnings", "allow", "allow"},
		{"cargo audit fix", "!allow", "!allow"},
		{"cargo audit --db /tmp/db", "!allow", "!allow"},
		{"cargo audit --url https://evil.example/db.git", "!allow", "!allow"},
	}
	for _, r := range rows {
		for _, m := range []struct {
			sandboxed bool
			want      string
		}{{true, r.on}, {false, r.off}} {
			cx := ctx
			cx.Sandboxed = m.sandboxed
			v := e.Check(Query{Kind: KindShell, Command: r.cmd, Context: cx})
			if got := v.Decision.String(); got != m.want && !(m.want == "!allow" && got != "allow") {
				t.Errorf("sandbox %v: %q: %s by %s (%s), want %s", m.sandboxed, r.cmd, got, v.Rule, v.Reason, m.want)
			}
		}
	}
}
