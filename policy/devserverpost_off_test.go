package policy

import "testing"

// TestDevServerPostOff: with the sandbox off, a request whose body is on
// the line to a framework's dev-server port on the loopback is allowed
// (devserverpost_off.go); other ports, implicit ports, bodies or headers
// from files, credentials, a Host header, other options and in place
// still ask. Shapes from polcorp5-10 (everyday/localhost) and the httpie
// README.
func TestDevServerPostOff(t *testing.T) {
	off := testEnv(t)
	in := off
	in.InPlace = true
	e := Default()
	allow := []string{
		`curl -X POST http://localhost:3000/api/login -H 'Content-Type: application/json' -d '{"email":"test@example.com","password":"test"}'`,
		`curl -s -X POST http://localhost:8000/api/items -H 'Content-Type: application/json' -d '{"name":"test"}'`,
		`curl -s http://0.0.0.0:4000/graphql -H 'content-type: application/json' -d '{"query":"{ __typename }"}'`,
		`curl -s http://[::1]:4000/graphql -d '{"query":"{ ping }"}' 2>&1 | tail -n 40`,
		`curl -sS -X PUT http://127.0.0.1:8080/api/users/1 -H 'Accept: application/json' --json '{"name":"x"}'`,
		`curl -X PATCH localhost:5173/api/todo/2 -d 'done=true' -o /dev/null -w '%{http_code}'`,
		`set -o pipefail; curl -X POST http://localhost:3000/api/login -H 'Content-Type: application/json' -d '{"email":"a@b.c","password":"x"}' 2>&1 | tail -n 50`,
	}
	ask := []string{
		`curl -X POST http://localhost:2375/containers/create -H 'Content-Type: application/json' -d '{"Image":"alpine"}'`, // the Docker daemon
		`curl -X POST http://localhost:9200/logs/_delete_by_query -d '{"query":{"match_all":{}}}'`,                         // Elasticsearch
		`curl -X POST http://127.0.0.1:11434/api/pull -d '{"name":"llama3"}'`,                                              // Ollama
		`curl -X POST http://localhost:8888/api/terminals -d '{}'`,                                                         // Jupyter
		`curl -X POST http://localhost:8200/v1/sys/unseal -d '{"key":"x"}'`,                                                // Vault
		`curl -X POST http://localhost/api -d '{}'`,                                                                        // port 80: not a dev server
		`curl -X POST https://localhost/api -d '{}'`,
		`curl -X POST http://localhost:3000/api -d @.env`,
		`curl -X POST http://localhost:3000/api -H 'Authorization: Bearer x' -d '{}'`,
		`curl -X POST http://localhost:3000/api -H 'Cookie: session=x' -d '{}'`,
		`curl -X POST http://localhost:3000/api -H 'Host: metadata.google.internal' -d '{}'`,
		`curl -X POST http://localhost:3000/api -H @headers.txt -d '{}'`,
		`curl -X POST -u admin:admin http://localhost:3000/api -d '{}'`,
		`curl -X POST --unix-socket /var/run/docker.sock http://localhost:3000/containers/create -d '{}'`,
		`curl -X POST -x http://proxy:3128 http://localhost:3000/api -d '{}'`,
		`curl -X POST http://localhost:3000/api -d '{}' https://example.com:3000/`,
		`curl -X POST http://localhost:3000/api -d "$(cat .env)"`,
		`curl -X DELETE http://localhost:3000/api/users/1`,
		`curl -X POST http://localhost:3000/shutdown`,
		`curl -X POST http://localhost:3000/api -d '{}' -o out.json -K cfg`,
		`http POST :8200/v1/sys/unseal key=x`,
		`http POST :3000/api @body.json`,
		`http POST :3000/api name=@secret.txt`,
		`http POST :3000/api Authorization:'Bearer x' name=a`,
		`http --session=admin POST :3000/api name=a`,
		`http POST example.com:3000/api name=a`,
	}
	for _, cmd := range allow {
		if v := e.Check(Query{Kind: KindShell, Command: cmd, Context: off}); v.Decision != Allow {
			t.Errorf("off: %q: %s by %s (%s), want allow", cmd, v.Decision, v.Rule, v.Reason)
		}
		if v := e.Check(Query{Kind: KindShell, Command: cmd, Context: in}); v.Decision == Allow {
			t.Errorf("in place: %q allowed by %s (%s)", cmd, v.Rule, v.Reason)
		}
	}
	for _, cmd := range ask {
		for _, cx := range []Context{off, in} {
			if v := e.Check(Query{Kind: KindShell, Command: cmd, Context: cx}); v.Decision == Allow {
				t.Errorf("off (in place %v): %q allowed by %s (%s)", cx.InPlace, cmd, v.Rule, v.Reason)
			}
		}
	}
}
