package policy

import "testing"

// A build tool's long option is judged as its short twin (shorttwins.go):
// polcorp8 `swift build --configuration release`, `mvn -v`. The twin of a
// risky option stays risky in both spellings.
func TestLongOptionIsItsShortTwin(t *testing.T) {
	checkClass(t, []classCase{
		{`swift build -c release`, "allow"},
		{`swift build --configuration release`, "allow"},
		{`swift build --configuration=release`, "allow"},
		{`swift test --configuration release --jobs 4`, "allow"},
		{`mvn --version`, "allow"},
		{`mvn -v`, "allow"},
		{`dotnet build --configuration Release --framework net8.0`, "allow"},
		// still asked or denied, in either spelling
		{`gradle --init-script /tmp/x.gradle test`, "!allow"},
		{`gradle -I /tmp/x.gradle test`, "!allow"},
		{`dotnet test --settings /work/x.runsettings`, "!allow"},
		{`dotnet test -s /work/x.runsettings`, "!allow"},
		{`mvn -v deploy`, "!allow"},
	})
	if got := twinArgs("swift", []word{{val: "swift", static: true}, {val: "--configuration=release", static: true}}); len(got) != 3 || got[1].val != "-c" || got[2].val != "release" {
		t.Errorf("twinArgs: got %v, want swift -c release", vals(got))
	}
}

// A tool that rewrites or builds into the workspace root writes files
// under it, not the root (treewrites.go).
func TestToolWritingTheWorkspaceTree(t *testing.T) {
	checkClass(t, []classCase{
		{`gofmt -w .`, "allow"},
		{`goimports -w .`, "allow"},
		{`goimports -w ./`, "allow"},
		{`cmake --build .`, "allow"},
		{`cmake --build . -j4`, "allow"},
		{`cmake --build . 2>&1 | tail -n 30`, "allow"},
		// the root itself, protected places and outside stay as they were
		{`touch .`, "ask"},
		{`gofmt -w .git/hooks`, "deny"},
		{`gofmt -w /etc`, "deny"},
		{`cmake --build /tmp/../etc`, "!allow"},
	})
}

// Test runners and linters run from the project are project tools
// (testrunners.go); an option that loads a program or module asks.
func TestProjectTestRunners(t *testing.T) {
	checkClass(t, []classCase{
		{`bats tests/`, "allow"},
		{`bundle exec cucumber features/login.feature`, "allow"},
		{`timeout 600 bundle exec cucumber features/login.feature`, "allow"},
		{`behave features/`, "allow"},
		{`stylua --check .`, "allow"},
		{`luacheck src`, "allow"},
		{`dprint check`, "allow"},
		// code or programs from elsewhere still ask
		{`bats -F /opt/fmt tests/`, "!allow"},
		{`bats --report-formatter=/opt/fmt tests/`, "!allow"},
		{`bundle exec cucumber -r /opt/steps.rb`, "!allow"},
		{`bundle exec cucumber --require=/opt/steps.rb`, "!allow"},
		{`busted --helper=/opt/h.lua`, "!allow"},
		{`bats /etc/x.bats`, "!allow"},
	})
}

// A binstub is in the bin/ of the project it belongs to, in a monorepo a
// subdirectory of the workspace (binstubs.go).
func TestBinstubsOfAProjectSubdirectory(t *testing.T) {
	cases := []classCase{
		{`cd api && ./bin/rubocop -a`, "allow"},
		{`api/bin/rails test`, "allow"},
		{`(cd web && bin/rails test)`, "allow"},
		{`bin/rspec`, "allow"},
		// a program named like a system tool, or in a package's tree
		{`cd api && ./bin/ls`, "!allow"},
		{`./node_modules/x/bin/rails`, "!allow"},
		{`./vendor/x/bin/rspec`, "!allow"},
	}
	ctx := testEnv(t)
	ctx.Sandboxed = true
	e := Default()
	for _, c := range cases {
		v := e.Check(Query{Kind: KindShell, Command: c.line, Context: ctx})
		if (c.want == "allow") != (v.Decision == Allow) {
			t.Errorf("(sandbox on) %q: got %s by %s (%s), want %s", c.line, v.Decision, v.Rule, v.Reason, c.want)
		}
	}
	for _, c := range []struct {
		r, name string
		ok      bool
	}{{"bin/rails", "rails", true}, {"api/bin/rails", "rails", true}, {".git/bin/rails", "", false},
		{"node_modules/x/bin/rails", "", false}, {"api/rails", "", false}} {
		if name, ok := binstubName(c.r); name != c.name || ok != c.ok {
			t.Errorf("binstubName(%q) = %q %v, want %q %v", c.r, name, ok, c.name, c.ok)
		}
	}
}
