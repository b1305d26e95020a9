package policy

import "strings"

// Read-only infrastructure work with the sandbox off (issue 32, off31).
// Off, the command runs with the person's own credentials, so what it may
// do is what the person's cloud account and cluster allow; these forms
// change nothing there and run only code the repository holds:
//
//   - `terraform plan` (and tofu's), `terraform state list`, `terraform
//     show PLANFILE`: plan runs the providers the person's own `init`
//     installed (init, which fetches them, still asks) and the
//     configuration's data sources, the repository's code as `make test`
//     is, and reads remote state and the cloud's current objects with the
//     person's credentials; it writes only the plan file (-out, judged as
//     the write it is). state list prints resource addresses. What still
//     asks: `show -json` and `output` (they print sensitive values in
//     clear), `state show/pull`, `console`, `init`, `refresh` and
//     `plan`'s options that write state or name another configuration
//     (-state-out, -backup, -generate-config-out): offInfraPlanArgs.
//   - `tflint` without --init: the ruleset plugins already installed, on
//     the repository's configuration; --init downloads plugins and asks.
//   - kubectl's read-only verbs (remotereads.go's list without logs,
//     whose lines can hold anything the application printed) against the
//     context the person configured: no --context, --kubeconfig, server,
//     token or impersonation option and no KUBECONFIG or other
//     environment prefix, and nothing naming secrets or service-account
//     tokens (remoteReadRefused). Reads of every namespace (-A) or of one
//     whose name says production (`-n prod`) still ask: polcorp6 and
//     polcorp7 label exactly those asks. `kubectl get secret` stays denied.

// offInfraPlanVerb reports whether verb of tool is one of the read-only
// infrastructure verbs above.
func offInfraPlanVerb(tool, verb string) bool {
	switch tool {
	case "terraform", "tofu":
		return verb == "plan" || verb == "state list" || verb == "show"
	case "tflint":
		return verb == "" || verb == "--recursive"
	}
	return false
}

// offRunArgs reports whether the arguments of an off-allowed run verb keep
// it what offRunVerb allowed: terraform's keep it read-only (see above);
// `dvc repro --pull` and `dvc exp run --pull` download the data first
// (offcode.go). Other tools pass.
func offRunArgs(tool, verb string, rest []word) bool {
	if tool == "dvc" {
		for _, w := range rest {
			if name, _, _ := strings.Cut(w.val, "="); !w.static || name == "--pull" || name == "--queue" || name == "--run-all" {
				return false
			}
		}
		return true
	}
	if tool != "terraform" && tool != "tofu" {
		return true
	}
	if verb == "show" && len(operands(rest, "", nil)) == 0 {
		return false // the backend's state, not a plan file
	}
	for _, o := range operands(rest, "", nil) {
		if verb == "show" && strings.Contains(o.val, ".tfstate") {
			return false // a state file holds every attribute, secrets in clear (cat asks for it) (revpol)
		}
	}
	for _, w := range rest {
		if !w.static {
			return false
		}
		name, _, _ := strings.Cut(strings.TrimLeft(w.val, "-"), "=")
		switch {
		case !strings.HasPrefix(w.val, "-"):
		case name == "json" && verb == "show":
			return false // sensitive values in clear
		case name == "state-out" || name == "backup" || name == "generate-config-out" || name == "state" || name == "plugin-dir":
			return false
		}
	}
	return true
}

// offKubectlVerbs are kubectl's read-only verbs allowed off.
var offKubectlVerbs = wordSet{words: []string{"get", "describe", "explain", "api-resources", "api-versions", "top",
	"events", "config current-context", "config get-contexts", "config get-clusters", "auth can-i", "rollout status", "rollout history"}}

// kubectlReadOff allows, with the sandbox off, a read-only kubectl verb
// against the configured context (see above); it reports whether it did.
func (x *cmdCtx) kubectlReadOff(args []word) bool {
	if len(args) < 2 || !args[1].static || x.part == nil || len(x.part.Assigns) > 0 {
		return false
	}
	verb := args[1].val
	if len(args) > 2 && offKubectlVerbs.has(verb+" "+args[2].val) {
		verb += " " + args[2].val
	}
	if !offKubectlVerbs.has(verb) {
		return false
	}
	for _, w := range args[2:] {
		name, _, _ := strings.Cut(w.val, "=")
		if remoteReadRefused("kubectl", w) || name == "--context" || name == "-A" || name == "--all-namespaces" ||
			strings.Contains(strings.ToLower(w.val), "prod") {
			return false // another context, every namespace, or production's
		}
		if name == "--filename" || name == "--kustomize" || kubectlShortFileOpt(w.val) {
			return false // kinds and names from a file or stdin: a Secret there prints its values (revpol)
		}
	}
	x.add(Allow, RuleNetTool, "kubectl "+verb+" reads the cluster of the person's configured context and changes nothing (--sandbox off)")
	return true
}

// kubectlShortFileOpt reports whether a short option word (-f, -k, or a
// bundle holding them: -Rf, -fx.yaml) names the objects from a file, a
// kustomization or stdin. A letter that takes a value (-o, -l, -n, -s, -L,
// -c) ends the bundle: -owide, -nfoo.
func kubectlShortFileOpt(v string) bool {
	if len(v) < 2 || v[0] != '-' || v[1] == '-' {
		return false
	}
	for _, c := range v[1:] {
		switch {
		case c == 'f' || c == 'k':
			return true
		case strings.ContainsRune("olnsLc=", c):
			return false
		}
	}
	return false
}
