package mcpserver

import (
	"encoding/json"
	"fmt"
	"slices"
	"sort"
	"strings"
)

// The service tool runs `systemctl ACTION -- UNIT` as the server's user.
// A server installed as a user service (NoNewPrivileges: no sudo, no
// setuid) is allowed to start, stop, restart or reload a system unit by
// polkit, which systemd asks over D-Bus. ServicePolkitRule is the one
// fixed rule that allows exactly the configured actions on the configured
// units for that user: no shell, no other unit, no other verb.

// PolkitRulesPath is where the rule is installed.
const PolkitRulesPath = "/etc/polkit-1/rules.d/50-sentinel-mcp.rules"

// polkitVerbs are the service actions that need a privilege, and the verb
// systemd names them by in its polkit check (org.freedesktop.systemd1.
// manage-units, details "unit" and "verb"). status, is-active and
// is-enabled need none; enable and disable are checked as
// manage-unit-files, which names no unit, so no rule can keep them to
// one: they stay root's.
var polkitVerbs = map[string]string{"start": "start", "stop": "stop", "restart": "restart", "reload": "reload"}

// ServicePolkitRule is the polkit rule for the config's services, allowing
// user; notes say what it leaves out. No service action that needs a
// privilege gives no rule (empty text).
func ServicePolkitRule(c *Config, user string) (text string, notes []string, err error) {
	if !validPolkitUser(user) {
		return "", nil, fmt.Errorf("polkit rule: user %q is not a plain user name", user)
	}
	allowed := map[string][]string{}
	var left []string
	for name, s := range c.Services {
		unit := s.Unit
		if unit == "" {
			unit = name
		}
		if !validUnit(unit) { // ParseConfig refused it already: fail closed anyway
			return "", nil, fmt.Errorf("polkit rule: unit %q is not a unit name", unit)
		}
		full := fullUnitName(unit)
		for _, a := range s.Actions {
			verb, ok := polkitVerbs[a]
			switch {
			case ok:
				if !slices.Contains(allowed[full], verb) {
					allowed[full] = append(allowed[full], verb)
				}
			case a == "enable" || a == "disable":
				left = append(left, a+" "+full)
			}
		}
	}
	if len(left) > 0 {
		sort.Strings(left)
		notes = append(notes, "polkit cannot keep enable and disable to one unit, so the rule does not allow them ("+strings.Join(left, ", ")+"): they stay root's")
	}
	if len(allowed) == 0 {
		return "", notes, nil
	}
	for _, v := range allowed {
		sort.Strings(v)
	}
	units, err := json.MarshalIndent(allowed, "    ", "    ") // JSON is a JavaScript literal; keys sorted
	if err != nil {
		return "", nil, err
	}
	who, _ := json.Marshal(user)
	from, _ := json.Marshal(c.File) // escapes every line terminator JavaScript knows
	return fmt.Sprintf(`// Written by sentinel mcp install from %s.
// Lets %s (the sentinel mcp service) run exactly these systemctl actions on
// these units, and nothing else. Install it with:
//   sudo install -m 0644 -o root -g root THIS_FILE %s
polkit.addRule(function(action, subject) {
    if (action.id !== "org.freedesktop.systemd1.manage-units" || subject.user !== %s) {
        return polkit.Result.NOT_HANDLED;
    }
    var allowed = %s;
    var unit = action.lookup("unit");
    if (typeof unit === "string" && Object.prototype.hasOwnProperty.call(allowed, unit) &&
        allowed[unit].indexOf(action.lookup("verb")) >= 0) {
        return polkit.Result.YES;
    }
    return polkit.Result.NOT_HANDLED;
});
`, from, user, PolkitRulesPath, who, units), notes, nil
}

// fullUnitName is the name systemd gives a unit in its polkit check: a
// name without a type is a service.
func fullUnitName(u string) string {
	for _, t := range []string{".service", ".socket", ".timer", ".target", ".path", ".mount", ".slice", ".scope", ".device", ".swap", ".automount"} {
		if strings.HasSuffix(u, t) {
			return u
		}
	}
	return u + ".service"
}

func validPolkitUser(u string) bool {
	if u == "" || len(u) > 64 || u[0] == '-' {
		return false
	}
	for _, r := range u {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' || r == '_' || r == '.') {
			return false
		}
	}
	return true
}
