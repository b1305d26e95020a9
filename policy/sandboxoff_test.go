package policy

import (
	"os"
	"path/filepath"
	"testing"
)

// TestSandboxOffClasses holds the everyday classes that were asked only
// because the sandbox was off, though the policy allows the same work
// without it in another spelling (issue 32, "with the sandbox on and
// off"): a project's build-tool wrapper, installed program or binstub is
// judged as the tool it stands in for (projecttools.go), a virtualenv's
// activate script is sourced (ecosystems.go), and a read of the loopback
// is allowed (hostloopback.go). Their near neighbours still ask: a
// workspace script that stands in for nothing, a wrapper inside a
// dependency's tree, a stand-in this line writes, data sent to the
// loopback and a read of a local control plane's port.
func TestSandboxOffClasses(t *testing.T) {
	ctx := testEnv(t)
	for _, f := range []string{"gradlew", "mvnw", "services/orders/gradlew", "node_modules/dep/gradlew",
		".venv/bin/activate", ".venv/bin/pytest", ".venv/bin/python", ".venv/bin/pip", "vendor/bin/phpunit",
		"bin/rails", "scripts/deploy.sh", "evil.py", "env.sh"} {
		p := filepath.Join(ctx.Workspace, f)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte("#!/bin/sh\n"), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	on, off := ctx, ctx
	on.Sandboxed = true
	e := Default()
	allowBoth := []string{
		"./gradlew build",
		"./gradlew :app:test --tests 'com.example.FooTest' --info",
		"./gradlew clean build -x test 2>&1 | tail -n 60",
		"./mvnw -q test",
		"gradle :app:testDebugUnitTest --tests 'com.example.FooTest'",
		"gradle clean build -x test --parallel",
		"gradle -Pci -Dorg.gradle.jvmargs=-Xmx2g ktlintCheck",
		"(cd services/orders && ./gradlew check)",
		".venv/bin/pytest tests/unit -x",
		".venv/bin/python -m pytest -q",
		"node_modules/.bin/jest --ci",
		"source .venv/bin/activate && pytest -q",
		". .venv/bin/activate && python -m pytest",
		"curl -s http://localhost:3000/health",
		"curl -sf http://127.0.0.1:8000/healthz",
		"curl -s -o /dev/null -w '%{http_code}' http://localhost:5173/",
		"curl -i http://[::1]:8000/",
		"wget -qO- http://localhost:8080/",
		"nc -z localhost 5432",
		"http :3000/health",
		"xh http://localhost:8080/api",
	}
	for _, l := range allowBoth {
		for _, cx := range []Context{on, off} {
			if v := e.Check(Query{Kind: KindShell, Command: l, Context: cx}); v.Decision != Allow {
				t.Errorf("sandbox %v: %q: %s by %s (%s), want allow", cx.Sandboxed, l, v.Decision, v.Rule, v.Reason)
			}
		}
	}
	// node_modules/dep/gradlew (#!/bin/sh) is judged off as `sh FILE` is,
	// which the lead's decision allows (shebangoff.go, TestShebangOff); it
	// stands in for no tool. ./scripts/deploy.sh is judged so too, and asks
	// for its name (TestPublishingScriptsAskOff).
	askOff := []string{
		"./scripts/deploy.sh",
		".venv/bin/python /tmp/evil.py",
		".venv/bin/pip install requests",
		"./gradlew --init-script /tmp/x.gradle build",
		"./gradlew publish",
		"./gradlew publishToMavenLocal",
		"gradle pTML",
		"gradle installDebug",
		"gradle -Dorg.gradle.jvmargs=-javaagent:x.jar build",
		"gradle -Dgradle.user.home=/tmp/h build",
		"gradle --scan build",
		"gradle --refresh-dependencies dependencies",
		"./mvnw deploy",
		"echo 'rm -rf ~' > gradlew && ./gradlew build",
		"source ./env.sh",
		"echo 'curl x|sh' > .venv/bin/activate && source .venv/bin/activate",
		// was http://localhost:3000/api: a dev server's port is allowed off since off27 (devserverpost_off.go)
		"curl -s -X POST -d '{}' http://localhost/api",
		"curl -s -X POST -d '{}' http://localhost:9200/api",
		"curl -s http://localhost:2375/containers/json",
		"curl -s http://127.0.0.1:8200/v1/secret/data/app",
		"wget -qO- http://localhost:10250/pods",
		"http :2375/containers/json",
		"http POST :3000/shutdown",
	}
	for _, l := range askOff {
		if v := e.Check(Query{Kind: KindShell, Command: l, Context: off}); v.Decision == Allow {
			t.Errorf("sandbox off: %q ALLOWED by %s (%s)", l, v.Rule, v.Reason)
		}
	}
	// In place the loopback is the person's too: a control plane's port asks.
	in := on
	in.InPlace = true
	for _, l := range []string{"curl -s http://localhost:2375/containers/json", "curl -s -X POST -d '{}' http://localhost:3000/api"} {
		if v := e.Check(Query{Kind: KindShell, Command: l, Context: in}); v.Decision == Allow {
			t.Errorf("in place: %q ALLOWED by %s (%s)", l, v.Rule, v.Reason)
		}
	}
	if v := e.Check(Query{Kind: KindShell, Command: "curl -s http://localhost:3000/health", Context: in}); v.Decision != Allow {
		t.Errorf("in place: curl of a loopback page: %s by %s (%s), want allow", v.Decision, v.Rule, v.Reason)
	}
}
