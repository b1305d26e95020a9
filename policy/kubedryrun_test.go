package policy

import "testing"

// TestKubectlClientDryRun: kubectl's --dry-run=client renders the objects a
// verb would send and sends nothing (kubernetes.io kubectl reference); it
// reads the cluster as kubectl get does. Inside the sandbox it is allowed
// as the sandbox's remote reads are (remotereads.go); with the sandbox off
// or in place it asks; it is never denied as a change to a cluster.
// --dry-run=server, a bare --dry-run, --server-side, --prune, a
// kubeconfig, token or server keep the verb's own judgment. polcorp15's
// `kubectl apply --dry-run=client -f …` (mr-pascal/dex k8s/check.sh,
// ronsilver/agent-development-rules k8s-validate.md) and `kubectl create
// configmap … --dry-run=client -o yaml > k8s/configmap.yaml` were denied
// as changing a cluster.
func TestKubectlClientDryRun(t *testing.T) {
	ctx := testEnv(t)
	on := ctx
	on.Sandboxed = true
	e := Default()
	for _, cmd := range []string{
		"kubectl apply --dry-run=client -f ./src",
		"kubectl apply --dry-run=client -f src/ -o yaml | head -50",
		"kubectl create configmap app-config --from-file=src/ --dry-run=client -o yaml > src/configmap.yaml",
		"kubectl create deployment web --image=nginx --dry-run=client -o yaml",
		"kubectl apply -k src --dry-run=client",
	} {
		v := e.Check(Query{Kind: KindShell, Command: cmd, Context: on})
		if v.Decision != Allow {
			t.Errorf("sandbox on: %q is %s by %s (%s), want allow", cmd, v.Decision, v.Rule, v.Reason)
		}
		if v := e.Check(Query{Kind: KindShell, Command: cmd, Context: ctx}); v.Decision != Ask {
			t.Errorf("sandbox off: %q is %s by %s (%s), want ask", cmd, v.Decision, v.Rule, v.Reason)
		}
	}
	for _, cmd := range []string{
		"kubectl apply --dry-run=server -f ./src", "kubectl apply --dry-run -f ./src", "kubectl apply -f ./src",
		"kubectl apply --dry-run=client --server-side -f ./src", "kubectl apply --dry-run=client --prune -l app=x -f ./src",
		"kubectl apply --dry-run=client --kubeconfig=/tmp/k -f ./src", "kubectl apply --dry-run=client --server=https://x.example -f ./src",
		"kubectl delete --dry-run=client pod x", "kubectl apply --dry-run=client -f ~/.kube/config",
		"kubectl create configmap c --from-file=k=/etc/shadow --dry-run=client -o yaml", "kubectl apply --dry-run=client -f \"$X\"",
	} {
		for _, c := range []Context{on, ctx} {
			if v := e.Check(Query{Kind: KindShell, Command: cmd, Context: c}); v.Decision == Allow {
				t.Errorf("sandbox %v: %q allowed by %s (%s)", c.Sandboxed, cmd, v.Rule, v.Reason)
			}
		}
	}
	if v := e.Check(Query{Kind: KindShell, Command: "kubectl apply --dry-run=server -f ./src", Context: on}); v.Decision != Deny {
		t.Errorf("kubectl apply --dry-run=server is %s, want the verb's deny", v.Decision)
	}
}
