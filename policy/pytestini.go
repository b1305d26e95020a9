package policy

import "strings"

// pytestIniOverride judges one -o/--override-ini KEY=VALUE of pytest as
// what it sets. addopts is a command line of its own (pytest splits it and
// parses it before the real one), so its options are judged as if they
// were written on the line: `-o addopts='--basetemp=/'` clears / as
// `--basetemp=/` does. cache_dir and log_file name a directory pytest
// writes (and --cache-clear deletes). static is whether the -o word had no
// expansion; addopts text the policy cannot split the way pytest does
// (quotes, escapes, expansions) asks.
func pytestIniOverride(x *cmdCtx, kv string, static bool) {
	key, val, _ := strings.Cut(kv, "=")
	switch strings.TrimSpace(key) {
	case "addopts":
		if !static || strings.ContainsAny(val, "'\"\\$`") {
			x.add(Ask, RuleBuildOption, "pytest -o addopts= sets options the policy cannot read before pytest splits them")
			return
		}
		ws := []word{{val: "pytest", static: true}}
		for _, f := range strings.Fields(val) {
			ws = append(ws, word{val: f, static: true})
		}
		pytestCmd(x, ws)
	case "cache_dir":
		if val != "" {
			x.write(word{val: strings.TrimSuffix(val, "/") + "/glob-match", static: static})
		}
	case "log_file", "junit_logfile":
		if val != "" {
			x.write(word{val: val, static: static})
		}
	}
}
