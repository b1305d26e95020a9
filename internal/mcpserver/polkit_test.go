//go:build unix

package mcpserver

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestServicePolkitRuleAllowsExactlyTheConfiguredActions runs the rule
// polkit would load (in node, with polkit's side stubbed) and asks it about
// the configured actions and everything around them.
func TestServicePolkitRuleAllowsExactlyTheConfiguredActions(t *testing.T) {
	t.Parallel()
	node, err := exec.LookPath("node")
	if err != nil {
		t.Fatal("node is needed to run the polkit rule: apt-get install -y nodejs")
	}
	f := newFixture(t)
	cfg := mustConfig(t, f.config(`
[services.nginx]
actions = ["status", "reload", "restart"]

[services.web]
unit = "app@blue.service"
actions = ["start", "stop", "enable"]
`))
	rule, notes, err := ServicePolkitRule(cfg, "sentinel")
	if err != nil {
		t.Fatal(err)
	}
	if len(notes) != 1 || !strings.Contains(notes[0], "enable app@blue.service") {
		t.Fatalf("notes %q: want enable named as left out", notes)
	}
	file := filepath.Join(t.TempDir(), "50-sentinel-mcp.rules")
	write(t, file, rule)
	// polkit's side: the rule registered, then asked one question a line.
	harness := `
const fs = require("fs");
let rule;
const polkit = {Result: {YES: "yes", NOT_HANDLED: "no"}, addRule: f => { rule = f; }};
new Function("polkit", fs.readFileSync(process.argv[1], "utf8"))(polkit);
for (const q of process.argv.slice(2)) {
  const [id, user, unit, verb] = q.split(" ");
  const action = {id, lookup: k => ({unit, verb})[k]};
  process.stdout.write(q + " => " + rule(action, {user}) + "\n");
}`
	ask := map[string]string{
		"org.freedesktop.systemd1.manage-units sentinel nginx.service reload":            "yes",
		"org.freedesktop.systemd1.manage-units sentinel nginx.service restart":           "yes",
		"org.freedesktop.systemd1.manage-units sentinel nginx.service stop":              "no",
		"org.freedesktop.systemd1.manage-units sentinel nginx.service start":             "no",
		"org.freedesktop.systemd1.manage-units sentinel app@blue.service start":          "yes",
		"org.freedesktop.systemd1.manage-units sentinel app@blue.service stop":           "yes",
		"org.freedesktop.systemd1.manage-units sentinel app@blue.service restart":        "no",
		"org.freedesktop.systemd1.manage-units sentinel sshd.service restart":            "no",
		"org.freedesktop.systemd1.manage-units sentinel __proto__ restart":               "no",
		"org.freedesktop.systemd1.manage-units sentinel constructor reload":              "no",
		"org.freedesktop.systemd1.manage-units someone nginx.service reload":             "no",
		"org.freedesktop.systemd1.manage-unit-files sentinel nginx.service reload":       "no",
		"org.freedesktop.systemd1.manage-units sentinel nginx reload":                    "no",
		"org.freedesktop.systemd1.manage-units sentinel nginx.service reload-or-restart": "no",
	}
	args := []string{"-e", harness, file}
	for q := range ask {
		args = append(args, q)
	}
	out, err := exec.Command(node, args...).CombinedOutput()
	if err != nil {
		t.Fatalf("node: %v\n%s\nrule:\n%s", err, out, rule)
	}
	for _, l := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		q, got, _ := strings.Cut(l, " => ")
		if want := ask[q]; got != want {
			t.Errorf("%s => %s, want %s", q, got, want)
		}
		delete(ask, q)
	}
	if len(ask) > 0 {
		t.Fatalf("unanswered: %v", ask)
	}

	// A user name that is not one is refused, not written into the rule.
	if _, _, err := ServicePolkitRule(cfg, `x" || true || "`); err == nil {
		t.Fatal("a user name with JavaScript in it made a rule")
	}
	// No action that needs a privilege: no rule.
	none := mustConfig(t, f.config("[services.nginx]\nactions = [\"status\", \"is-active\"]\n"))
	if rule, _, err := ServicePolkitRule(none, "sentinel"); err != nil || rule != "" {
		t.Fatalf("status only: rule %q, %v", rule, err)
	}
	_ = os.Remove(file)
}
