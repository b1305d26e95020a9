package policy

import (
	"regexp"
	"strings"
)

// Local forms of infrastructure tools with the sandbox off (issue 32,
// off24).
//
//   - `terraform validate` and `terraform graph` (and tofu's) read the
//     configuration and the providers `terraform init` already installed
//     in .terraform (pinned by the project's lock file): no API call, no
//     state, no download, so they are the project's installed code as
//     node_modules' is (offTerraformVerb, from offRunVerb). `plan`, `init`,
//     `show` without a plan file (the backend's state) and the rest still
//     ask: they reach the cloud or the registry with the person's
//     credentials.
//   - `docker inspect --format '{{.State.Health.Status}}' NAME` prints a
//     container's state from the person's own daemon. Inspect's full
//     output holds the container's environment (its secrets), so only a
//     format whose every field is under .State, or is .Name, .Id,
//     .RestartCount or .Created, is allowed off and in place, with no
//     environment prefix (DOCKER_HOST may name another daemon). docker
//     build still asks off: it can retag an image other projects run
//     (`-t node:20 .`) on the person's daemon.

// offTerraformVerb: the terraform or tofu verbs allowed off (validate,
// graph; plan, state list, show and tflint since off31:
// infraplan_off.go).
func offTerraformVerb(tool, verb string) bool {
	if offInfraPlanVerb(tool, verb) {
		return true
	}
	return (tool == "terraform" || tool == "tofu") && (verb == "validate" || verb == "graph")
}

var inspectStateAction = lazy[*regexp.Regexp]{build: func() *regexp.Regexp {
	return regexp.MustCompile(`\{\{\s*(json\s+)?\.(State(\.[A-Za-z]+)*|Name|Id|RestartCount|Created)\s*\}\}`)
}}

// containerStateInspect reports whether an inspect's opts name containers
// and a format that prints only their state (see above).
func containerStateInspect(opts []word) bool {
	if !inspectSafe(opts) {
		return false
	}
	format := ""
	for i := 0; i < len(opts); i++ {
		name, v, has := strings.Cut(opts[i].val, "=")
		if !opts[i].static || opts[i].pattern {
			return false
		}
		if name == "-f" || name == "--format" {
			if !has {
				if i+1 >= len(opts) {
					return false
				}
				i++
				v = opts[i].val
			}
			format = v
		}
	}
	if format == "" {
		return false
	}
	rest := inspectStateAction.get().ReplaceAllString(format, "")
	return rest != format && !strings.Contains(rest, "{{") && !strings.Contains(rest, "}}")
}
