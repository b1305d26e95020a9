package policy

import (
	"net/url"
	"strings"
)

// A request that sends data to the coder's dev server, with the sandbox
// off (issue 32, off27): `curl -X POST http://localhost:3000/api/login -H
// 'Content-Type: application/json' -d '{"email":"a@b.c"}'`, `curl -s
// localhost:4000/graphql -d '{"query":"{__typename}"}'`. Inside the
// sandbox the loopback is the run's own and such a request is allowed
// (localGet); off, the loopback is the person's machine, and what listens
// on a port there is not known. httpie's data items (`http :3000/api
// name=x`) ask in both modes, as polcorp1207 requires
// (TestPolcorp1207EverydayClasses): off is never looser than the sandbox.
//
// The rule: a loopback port is the project's dev server only when it is
// the port a web framework serves on by default (devServerPorts: Rails,
// Next, Express 3000; Phoenix, Apollo 4000; Flask 5000; Vite 5173 and its
// preview 4173; Angular 4200; Astro 4321; Django, uvicorn 8000; Spring,
// webpack-dev-server 8080; wrangler 8787; rackup 9292). Such a port is
// where `npm run dev` or `rails s` puts the server the coder is working
// on, so a request to it is the project's own test, as `npm test` is.
// Every other port asks, because a person's machine holds services there
// that are not the project's and whose HTTP API acts with the person's
// authority: the Docker daemon's TCP API (2375/2376: POST
// /containers/create is root on the host), the Kubernetes API, kubelet,
// etcd and kubectl proxy, Vault, Consul, Nomad (controlPlanePorts), a
// cloud metadata proxy or credential helper (aws-vault 9099, the ECS
// agent 51678, GKE's 988), a database's admin HTTP port (Elasticsearch
// 9200, CouchDB 5984, ClickHouse 8123, Neo4j 7474, InfluxDB 8086,
// RabbitMQ 15672, Solr 8983, MinIO 9000), Jupyter's 8888 (its API starts
// kernels and terminals) and Ollama's 11434 (a POST pulls a model from the
// internet). An implicit port (http://localhost/ is 80, https 443) asks
// too: on a person's machine that is a system web server or a proxy.
//
// The request must also carry nothing but what is written on the line
// and nothing that speaks for the person: its body inline (-d '{…}', not
// -d @file), only the plain headers of devPostHeaders (Content-Type,
// Accept…; no Authorization, Cookie or Host, which would name a
// credential or another virtual host), and no -u, cookie jar, config
// file, proxy or unix socket (localGet already refuses every option it
// does not know). In place (sentinel exec and mcp) it still asks: the
// in-place rules (inplace.go) are judged by their own attacker rounds.
// The residual risk, stated: a service of the person's own that happens
// to listen on a framework's default port (a Grafana on 3000, a LiteLLM
// proxy on 4000, a Jenkins on 8080) receives a request whose every byte
// is on the card; a GET to it was already allowed (hostloopback.go).

// devServerPorts are the web frameworks' default dev-server ports.
var devServerPorts = wordSet{words: []string{"3000", "3001", "3002", "3003", "3333", "4000", "4173", "4200", "4321",
	"5000", "5001", "5173", "5174", "8000", "8080", "8081", "8787", "9292"}}

// devPostHeaders are the request headers a dev-server request may set:
// they describe the body or the reply and name no identity or host.
var devPostHeaders = wordSet{words: []string{"content-type", "accept", "accept-language", "accept-encoding",
	"user-agent", "cache-control", "x-request-id", "x-requested-with", "content-language",
	"apollo-require-preflight", "x-apollo-operation-name"}}

// devServerPostOff wraps curl's handler (after localCurl): with the sandbox
// off, a request with an inline body to a dev-server port on the loopback
// is allowed (see above); everything else goes to prev.
func devServerPostOff(prev handler) handler {
	return func(x *cmdCtx, args []word) {
		if x.c.sandbox || x.c.inPlace || !localGet(args[1:]) || !sendsData(args[1:]) || !devServerRequest(args[1:]) {
			prev(x, args)
			return
		}
		x.add(Allow, RuleLocalHealth, "curl sends the data on this line to a dev server's port on "+x.loopbackWhere())
	}
}

// devServerRequest reports whether curl's args, already read by localGet,
// name only dev-server ports and only plain headers.
func devServerRequest(args []word) bool {
	urls := 0
	for i := 0; i < len(args); i++ {
		v := args[i].val
		if args[i].pattern && !ipv6LoopbackGlob(v) {
			return false // a glob or brace the shell may turn into other words
		}
		switch {
		case (v == "-H" || v == "--header") && i+1 < len(args):
			i++
			name, _, ok := strings.Cut(args[i].val, ":")
			if !ok || !devPostHeaders.has(strings.ToLower(strings.TrimSpace(name))) {
				return false
			}
		case inlineData(args, i) || v == "-X" || v == "--request" || v == "-w" || v == "--write-out" || v == "-m" ||
			v == "--max-time" || v == "--connect-timeout" || v == "--retry" || v == "--retry-delay" || v == "-o" || v == "--output":
			if !strings.HasPrefix(v, "-d") || v == "-d" {
				i++ // the option's value
			}
		case strings.HasPrefix(v, "-"):
		default:
			if !devServerURL(v) {
				return false
			}
			urls++
		}
	}
	return urls > 0
}

// devServerURL: a loopback URL whose port is written and is a dev-server
// port.
func devServerURL(v string) bool {
	if !loopbackURL(v) {
		return false
	}
	if !strings.Contains(v, "://") {
		v = "http://" + v
	}
	u, err := url.Parse(v)
	return err == nil && devServerPorts.has(u.Port())
}

// ipv6LoopbackGlob: an unquoted URL whose only glob characters are the
// brackets of [::1]. Should a workspace path match it, the bracket
// becomes ":" or "1": no host, or 0.0.0.1, which nothing can connect to.
func ipv6LoopbackGlob(v string) bool {
	rest := strings.Replace(v, "[::1]", "", 1)
	return rest != v && !strings.ContainsAny(rest, "*?[]{}")
}
