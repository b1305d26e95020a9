package policy

import "strings"

// kubectl's client-side dry run (issue 32, polcorp15): `kubectl apply
// --dry-run=client -f k8s/`, `kubectl create configmap x --from-file=conf/
// --dry-run=client -o yaml` render the objects the verb would send and send
// nothing; kubectl may read the cluster's current objects and API list, as
// kubectl get does. So the line is a remote read (remotereads.go): allowed
// inside the sandbox, which hides ~/.kube and lets kubectl reach only a
// host the proxy allows, and asked with the sandbox off or in place, where
// it would read with the person's credentials. The files it is given are
// read as any reader's are. Anything else keeps the verb's own judgment
// (publish.kubectl-apply and the rest deny): --dry-run=server and a bare
// --dry-run, --server-side, --prune, a word remotereads.go refuses (a
// kubeconfig, server, token or user) or a word not known before it runs.

// kubectlDryRunVerbs are the verbs whose --dry-run=client sends nothing.
var kubectlDryRunVerbs = wordSet{words: []string{"apply", "create", "run", "expose", "label", "annotate", "set", "autoscale"}}

// kubectlFileOpts are the options whose value is a file or folder kubectl
// reads (--from-file=KEY=PATH reads PATH).
var kubectlFileOpts = wordSet{words: []string{"-f", "--filename", "-k", "--kustomize", "--from-file", "--from-env-file"}}

// kubectlClientDryRun judges kubectl args as a client-side dry run; false
// when it is not one, and the line is judged as before.
func (x *cmdCtx) kubectlClientDryRun(args []word) bool {
	if len(args) < 3 || !args[1].static || !kubectlDryRunVerbs.has(args[1].val) {
		return false
	}
	dry := false
	var files []string
	for i := 2; i < len(args); i++ {
		w := args[i]
		name, val, hasVal := strings.Cut(w.val, "=")
		switch {
		case w.val == "--dry-run=client":
			dry = true
		case !w.static || w.brace:
			return false
		case kubectlFileOpts.has(name) && hasVal: // before remoteReadRefused, which refuses -file= (a template file)
			files = append(files, val)
		case name == "--dry-run" || name == "--server-side" || name == "--prune" || remoteReadRefused("kubectl", w):
			return false
		case kubectlFileOpts.has(name) && i+1 < len(args):
			i++
			if !args[i].static || args[i].brace {
				return false
			}
			files = append(files, args[i].val)
		}
	}
	if !dry {
		return false
	}
	for _, f := range files {
		if _, path, ok := strings.Cut(f, "="); ok {
			f = path // --from-file=KEY=PATH
		}
		if !strings.Contains(f, "://") {
			x.readStr(f)
		}
	}
	if !x.c.sandbox || x.c.inPlace {
		x.add(Ask, RuleNetTool, "kubectl "+args[1].val+" --dry-run=client reads the cluster with the person's credentials")
		return true
	}
	x.add(Allow, RuleRemoteRead, "kubectl "+args[1].val+" --dry-run=client renders the objects and sends nothing")
	return true
}
