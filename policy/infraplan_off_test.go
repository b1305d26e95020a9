package policy

import "testing"

// TestInfraReadsOff (off31): with the sandbox off, terraform plan / state
// list / show PLANFILE, tflint and kubectl's read-only verbs against the
// configured context are allowed; what prints secrets, names another
// context or configuration, fetches plugins or changes anything asks or is
// denied as before.
func TestInfraReadsOff(t *testing.T) {
	checkOnOffIn(t, testEnv(t), []onOff{
		{"terraform plan", Allow, Allow},
		{"terraform plan -input=false -lock=false", Allow, Allow},
		{"terraform plan -out=tfplan", Allow, Allow},
		{"tofu plan -var-file=terraform.tfvars", Allow, Allow},
		{"terraform state list", Allow, Allow},
		{"terraform show tfplan", Allow, Allow},
		{"tflint", Allow, Allow},
		{"tflint --recursive", Allow, Allow},
		{"kubectl get pods", Allow, Allow},
		{"kubectl get deploy -n staging -o wide", Allow, Allow},
		{"kubectl describe pod -l app=test-app", Allow, Allow},
		{"kubectl config current-context", Allow, Allow},
		{"kubectl explain deployment.spec.strategy", Allow, Allow},
		{"kubectl get pods -A", Allow, Ask},
		{"kubectl get pods -n prod", Allow, Ask},
		{"kubectl describe deploy api --namespace=production", Allow, Ask},
		{"terraform show", Allow, Ask},

		{"terraform show -json tfplan", Allow, Ask},
		{"terraform plan -out=/etc/tfplan", Deny, Deny},
		{"terraform apply -auto-approve", Deny, Deny},
		{"terraform destroy", Deny, Deny},
		{"terraform output -json", Ask, Ask},
		{"terraform init -backend=false", Allow, Ask},
		{"tflint --init", Allow, Ask},
		{"kubectl get secret db -o yaml", Deny, Deny},
		{"kubectl get pods --context prod", Allow, Ask},
		{"kubectl --context=prod get pods", Ask, Ask},
		{"kubectl get pods --kubeconfig ./kc.yaml", Ask, Ask},
		{"KUBECONFIG=./kc.yaml kubectl get pods", Ask, Ask},
		{"kubectl get pods --token abc", Ask, Ask},
		{"kubectl logs deploy/api --tail=200", Allow, Ask},
		{"kubectl delete pod x", Deny, Deny},
		{"kubectl apply -f k8s/", Deny, Deny},
		{"kubectl exec -it api -- sh", Deny, Deny},
		// Other tools' run verbs keep offRunVerb's table (an early
		// draft let every run verb through off).
		{"mix setup", Allow, Ask},
		// dvc's pipeline is the project's own commands, as make's targets.
		{"dvc repro", Allow, Allow},
		{"dvc repro train", Allow, Allow},
		{"dvc exp run", Allow, Allow},
		{"dvc repro --pull", Allow, Ask},
		{"dvc push", Ask, Ask},
		{"dvc gc -w", Ask, Ask},
		{"tox -e py312", Allow, Ask},
	})
}
