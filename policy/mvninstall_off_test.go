package policy

import (
	"strings"
	"testing"
)

// TestMavenInstallAsksOffAndSaysWhy records a decision (mvninstall_off.go):
// with the sandbox off, `mvn install` (polcorp7/9/10/11 everyday/java, from
// Spring and Quarkus READMEs) keeps asking, because it replaces artifacts
// in ~/.m2/repository that every other project on the machine builds
// against; the ask names that and the everyday form, `mvn verify`, which
// is allowed. gradle publishToMavenLocal asks off for the same reason.
// Inside the sandbox install is allowed.
func TestMavenInstallAsksOffAndSaysWhy(t *testing.T) {
	off := testEnv(t)
	on := off
	on.Sandboxed = true
	e := Default()
	for _, line := range []string{`mvn clean install`, `mvn clean install -DskipTests`, `./mvnw clean install`,
		`time mvn clean install -DskipTests`, `mvn -q install`} {
		v := e.Check(Query{Kind: KindShell, Command: line, Context: off})
		if v.Decision != Ask || !strings.Contains(v.Reason, "~/.m2/repository") || !strings.Contains(v.Reason, "mvn verify") {
			t.Errorf("off: %q: %s %s: %s", line, v.Decision, v.Rule, v.Reason)
		}
		if v := e.Check(Query{Kind: KindShell, Command: line, Context: on}); v.Decision != Allow {
			t.Errorf("on: %q: %s %s: %s", line, v.Decision, v.Rule, v.Reason)
		}
	}
	for _, line := range []string{`mvn clean verify`, `./mvnw clean verify`, `mvn -q package`} {
		if v := e.Check(Query{Kind: KindShell, Command: line, Context: off}); v.Decision != Allow {
			t.Errorf("off: %q: %s %s: %s", line, v.Decision, v.Rule, v.Reason)
		}
	}
	for _, line := range []string{`gradle publishToMavenLocal`, `./gradlew publishToMavenLocal`, `mvn install:install-file -Dfile=x.jar`} {
		if v := e.Check(Query{Kind: KindShell, Command: line, Context: off}); v.Decision == Allow {
			t.Errorf("off: %q allowed: %s", line, v.Reason)
		}
	}
}
