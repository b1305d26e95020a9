package policy

import "strings"

// Reads of remote services inside the sandbox: kubectl's and gh's
// read-only commands (kubectl get pods, kubectl logs deploy/api, gh pr
// view, gh pr checks). Inside the sandbox the person's credentials
// (~/.kube, ~/.config/gh, tokens in the environment) are out of reach and
// the only way out is Sentinel's proxy, which asks for every new host: the
// command reads what the sandbox lets it reach and changes nothing. With
// the sandbox off it would read with the person's credentials, and asks.
// What makes the read safe is the sandbox, not the tool: sandbox/profile.go
// hides ~/.kube and ~/.config/gh (credentialPaths), sandbox.go passes no
// GH_TOKEN, GITHUB_TOKEN or KUBECONFIG (allowedEnv plus the agent's own
// keys), and --kubeconfig, --token, --server and --hostname are refused
// below, so gh and kubectl reach a host only unauthenticated and only a
// host the proxy's allowlist or the person approves.
// A command that names a secret, another server, another configuration or
// credentials, a raw API path, a browser or a program to run goes to the
// tool's handler, as does every other verb.

// RuleRemoteRead allows a read-only command of a remote tool inside the
// sandbox.
const RuleRemoteRead = "net.sandboxed-read"

// remoteReadVerbs: per tool, its read-only verbs (space-joined for two
// words). kubectl version and cluster-info are left out: the server's
// version is asked (classes3_test.go), and cluster-info dump prints it all.
var remoteReadVerbs = lazy[map[string]*wordSet]{build: func() map[string]*wordSet {
	return map[string]*wordSet{
		"kubectl": &wordSet{words: []string{"get", "describe", "logs", "explain", "api-resources", "api-versions", "top",
			"events", "config current-context", "config get-contexts", "config get-clusters", "auth can-i", "rollout status", "rollout history"}},
		"gh": &wordSet{words: []string{"pr view", "pr list", "pr checks", "pr diff", "pr status", "issue view", "issue list",
			"issue status", "repo view", "run list", "run view", "workflow list", "workflow view", "release list",
			"release view", "search issues", "search prs", "search repos", "status"}},
	}
}}

// remoteReadRefused: words of a line that make it more than a read.
func remoteReadRefused(tool string, w word) bool {
	if !w.static || w.brace {
		return true
	}
	v := strings.ToLower(w.val)
	name, _, _ := strings.Cut(v, "=")
	switch tool {
	case "kubectl":
		if strings.Contains(v, "secret") || strings.Contains(v, "serviceaccount") || strings.Contains(v, "token") {
			return true // secret values, or a token to mint
		}
		switch name {
		case "--raw", "--kubeconfig", "--server", "-s", "--token", "--as", "--as-group", "--as-uid", "--username",
			"--password", "--client-key", "--client-certificate", "--certificate-authority", "--insecure-skip-tls-verify",
			"--cache-dir", "--profile", "--profile-output", "--tls-server-name", "--user", "--cluster", "dump":
			return true
		}
		return strings.Contains(v, "-file=") // --template-file, go-template-file, jsonpath-file: a file read as a program
	case "gh":
		switch name {
		case "--web", "-w", "--hostname", "--repo-url":
			return true
		}
		return strings.HasPrefix(v, "http://") || strings.HasPrefix(v, "https://") && !strings.HasPrefix(v, "https://github.com/")
	}
	return true
}

// remoteRead wraps tool's handler: inside the sandbox, a read-only verb
// with nothing refused is allowed.
func remoteRead(tool string, prev handler) handler {
	return func(x *cmdCtx, args []word) {
		verbs := remoteReadVerbs.get()[tool]
		if !x.c.sandbox && tool == "kubectl" && x.kubectlReadOff(args) { // infraplan_off.go
			return
		}
		if !x.c.sandbox || x.c.inPlace || len(args) < 2 {
			prev(x, args)
			return
		}
		verb := args[1].val
		if verbs != nil && len(args) > 2 && verbs.has(verb+" "+args[2].val) {
			verb += " " + args[2].val
		}
		if verbs == nil || !args[1].static || !verbs.has(verb) {
			prev(x, args)
			return
		}
		for _, w := range args[2:] {
			if remoteReadRefused(tool, w) {
				prev(x, args)
				return
			}
		}
		x.add(Allow, RuleRemoteRead, tool+" "+verb+" reads what the sandbox lets it reach and changes nothing")
	}
}

// gitFetchOpts are git fetch's and pull's options that change only what is
// fetched or how the workspace is updated.
var gitFetchOpts = wordSet{words: []string{"--all", "--prune", "-p", "--tags", "-t", "--no-tags", "--unshallow", "--rebase",
	"-r", "--ff-only", "--no-rebase", "--no-edit", "--ff", "--no-ff", "--quiet", "-q", "-v", "--verbose", "--autostash",
	"--no-autostash", "--prune-tags", "--dry-run", "--progress", "--no-progress", "--set-upstream"}}

// gitFetchPlain: git fetch or pull of a configured remote, named plainly
// (origin, upstream), with plain refspecs and the options above; inside
// the sandbox it reads what the sandbox's proxy lets it reach, as gh pr
// view does, and changes only the workspace copy. A URL, a path, a
// program-running option or any other option goes to git's network rule.
func gitFetchPlain(sargs []word) bool {
	remote := false
	for i := 0; i < len(sargs); i++ {
		w := sargs[i]
		v := w.val
		if !w.static || w.brace || w.pattern {
			return false
		}
		switch {
		case gitFetchOpts.has(v) || strings.HasPrefix(v, "--depth=") && isDigits(v[len("--depth="):]) ||
			strings.HasPrefix(v, "--rebase=") || strings.HasPrefix(v, "--deepen=") && isDigits(v[len("--deepen="):]):
		case v == "--depth" && i+1 < len(sargs) && isDigits(sargs[i+1].val):
			i++
		case strings.HasPrefix(v, "-"):
			return false
		case !remote:
			for _, c := range v {
				if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '_' || c == '.') {
					return false // a URL or a path, not a configured remote
				}
			}
			if strings.HasPrefix(v, ".") {
				return false
			}
			remote = true
		default:
			ref := strings.TrimPrefix(v, "+")
			if ref == "" || strings.Contains(ref, "::") || strings.Contains(ref, "//") || strings.HasPrefix(ref, "/") ||
				strings.HasPrefix(ref, ".") || strings.ContainsAny(ref, "@\\ ") {
				return false
			}
		}
	}
	return true
}
