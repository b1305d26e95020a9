package steer

import (
	"reflect"
	"testing"
)

func TestMaskedExit(t *testing.T) {
	cases := []struct {
		cmd    string
		masked bool
		detail string
	}{
		{"go test ./... || true", true, "go test ./... || true"},
		{"go test ./... || :", true, "go test ./... || :"},
		{"npm test || echo 'tests failed'", true, "npm test || echo 'tests failed'"},
		{"pytest -q || exit 0", true, "pytest -q || exit 0"},
		{"go test ./... ; exit 0", true, "go test ./...; exit 0"},
		{"cargo test; true", true, "cargo test; true"},
		{"go test ./... 2>&1 | tail -20", true, "go test ./... 2>&1 | tail -20"},
		{"cd pkg && go test -run TestX . | grep -v ok", true, "go test -run TestX . | grep -v ok"},
		{"timeout 60 make test | tee out.log", true, "timeout 60 make test | tee out.log"},
		{`bash -c "go test ./... || true"`, true, "go test ./... || true"},
		{"python -m pytest tests/ | head", true, "python -m pytest tests/ | head"},
		{"npm run test:unit || true", true, "npm run test:unit || true"},
		// not masked
		{"go test ./...", false, ""},
		{"set -o pipefail; go test ./... | tail -20", false, ""},
		{"mkdir -p build || true", false, ""},
		{"go test ./... && echo ok", false, ""},
		{"go test ./... || go test -v ./...", false, ""},
		{"ls | grep test", false, ""},
		{"cat log | go test ./...", false, ""},
		{"go test ./...; echo done; go vet ./...", false, ""},
		{"npm run build-docs || true", false, ""},
		{"if (", false, ""}, // unparseable: not our business here
		// Read as the policy reads it (policy.ReadShell), where steering's
		// own reader once read otherwise:
		{"bash <<'EOF'\ngo test ./... || true\nEOF", true, "go test ./... || true"},    // a here-document script
		{"uv run sh -c 'pytest -q || true'", true, "pytest -q || true"},                // behind uv run
		{"env -u HOME go test ./... | tail", true, "env -u HOME go test ./... | tail"}, // -u takes a value
		{"bash run.sh -c 'go test ./... || true'", false, ""},                          // -c after the script is run.sh's
		{`bash -c "go test $PKG || true"`, false, ""},                                  // a script built at run time is not read
	}
	for _, c := range cases {
		d, ok := MaskedExit(c.cmd)
		if ok != c.masked || d != c.detail {
			t.Errorf("MaskedExit(%q) = %q, %v; want %q, %v", c.cmd, d, ok, c.detail, c.masked)
		}
	}
}

func TestIsCheck(t *testing.T) {
	cases := []struct {
		argv []string
		want bool
	}{
		{[]string{"go", "test", "./..."}, true},
		{[]string{"env", "CGO_ENABLED=0", "go", "vet", "./..."}, true},
		{[]string{"/usr/bin/pytest"}, true},
		{[]string{"make", "check"}, true},
		{[]string{"make", "install"}, false},
		{[]string{"go", "mod", "tidy"}, false},
		{[]string{"npm", "install"}, false},
		{[]string{"python3", "-m", "http.server"}, false},
		{[]string{"./test.sh"}, true},
		{[]string{"./scripts/run-tests.sh", "-v"}, true},
		{[]string{"bash", "ci/check.sh"}, true},
		{[]string{"./scripts/lint"}, true},
		{[]string{"./scripts/deploy.sh"}, false},
		{[]string{"./contest.sh"}, false},
		{[]string{"bash", "-c", "echo hi"}, false},
		{nil, false},
		{[]string{"env", "-u", "HOME", "go", "test"}, true},
		{[]string{"uv", "run", "pytest"}, true},
		{[]string{"sudo", "go", "test"}, false},
	}
	for _, c := range cases {
		if got := IsCheck(c.argv); got != c.want {
			t.Errorf("IsCheck(%q) = %v, want %v", c.argv, got, c.want)
		}
	}
}

func TestDeletedTests(t *testing.T) {
	cases := []struct {
		cmd  string
		want []string
	}{
		{"rm pkg/foo_test.go", []string{"pkg/foo_test.go"}},
		{"rm -f tests/test_api.py src/app.py", []string{"tests/test_api.py"}},
		{"git rm -q src/button.test.tsx", []string{"src/button.test.tsx"}},
		{"cd x && rm -rf __tests__/", []string{"__tests__/"}},
		{`sh -c 'unlink spec/user_spec.rb'`, []string{"spec/user_spec.rb"}},
		{"rm main.go", nil},
		{"bash <<EOF\nrm pkg/a_test.go\nEOF", []string{"pkg/a_test.go"}},
		{"env -u HOME rm pkg/a_test.go", []string{"pkg/a_test.go"}},
		{"bash run.sh -c 'rm pkg/a_test.go'", nil},
		{"go test ./...", nil},
	}
	for _, c := range cases {
		if got := DeletedTests(c.cmd); !reflect.DeepEqual(got, c.want) {
			t.Errorf("DeletedTests(%q) = %q, want %q", c.cmd, got, c.want)
		}
	}
}

func TestUpdatesExpectations(t *testing.T) {
	cases := []struct {
		cmd  string
		want bool
	}{
		{"go test ./tui -update", true},
		{"npx jest -u", false}, // npx is not a known check runner
		{"jest --updateSnapshot", true},
		{"vitest -u", true},
		{"go test ./...", false},
		{"git pull -u origin", false},
		{"sh -c 'go test ./tui -update'", true},
	}
	for _, c := range cases {
		if _, got := UpdatesExpectations(c.cmd); got != c.want {
			t.Errorf("UpdatesExpectations(%q) = %v, want %v", c.cmd, got, c.want)
		}
	}
}
