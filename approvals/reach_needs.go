package approvals

import (
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/sentinelhq/sentinel/policy"
)

// The general rule behind reach.go, reach_shell.go and reach_gitconfig.go:
// an approval lets a request run inside the coder's sandbox, nothing more.
// So what the request must do there — the places it writes, the daemon it
// talks to, the network it fetches from — has to be something the sandbox
// allows, or approving it changes nothing but the error the coder meets
// later (`mkdir …/go/pkg/mod/…: read-only file system`). The request says
// what it needs (the policy's parts: argv and redirections, read with each
// tool's known places); the sandbox says what it gives (Sees: what is
// writable; Inside: its environment and whether it has a network). A
// request the policy would ask about whose needs the sandbox refuses is
// denied at once by "sandbox", with what it needed, why it cannot have it
// and what would work instead; nobody is asked.
//
// Package registries follow the same rule from the other side: the proxy
// asks about a registry host while an install runs, and approving that
// host helps only if the installer can store what it fetches. Go keeps
// every download in its module cache and cargo in CARGO_HOME; when the
// sandbox keeps that place read-only, a card for the registry is a yes
// that cannot take effect, so it is not offered either.

// Inside is the coder's sandbox as the broker needs it beyond Sees.
type Inside struct {
	Env     []string // the environment the coder's processes get (KEY=value; a later key wins)
	Offline bool     // no network at all, not even through Sentinel's proxy
}

// Getenv is the value of key in the coder's environment, "" when unset.
func (in Inside) Getenv(key string) string {
	v := ""
	for _, kv := range in.Env {
		if k, val, ok := strings.Cut(kv, "="); ok && k == key {
			v = val
		}
	}
	return v
}

// need is one thing a command must be able to do in the sandbox.
type need struct {
	Path   string // a place it must write ("" for none)
	Daemon string // a unix socket it must reach ("" for none)
	Net    bool   // it must fetch over the network
	What   string // what the command does there, for the reason ("go install puts the program in")
	Fix    string // what would work instead
}

// needsOutOfReach answers a request the policy would ask about whose needs
// the coder's sandbox refuses, and a registry host whose installer could
// not store what it fetches.
func (b *Broker) needsOutOfReach(req Request, v policy.Verdict) (Decision, bool) {
	if b.cfg.Sees == nil || b.cfg.Inside == nil || v.Decision != policy.Ask {
		return Decision{}, false
	}
	in, ok := b.cfg.Inside()
	if !ok {
		return Decision{}, false // no sandbox (yet, or --sandbox off): the policy alone decides
	}
	switch req.Kind {
	case policy.KindNet:
		return b.registryOutOfReach(req, in)
	case policy.KindShell:
	default:
		return Decision{}, false
	}
	fetches := b.fetchOf(req) != nil // reads the registries' config: once a request
	for _, p := range v.Parts {
		for _, n := range needsOf(p, v, in, b.cfg.Context, fetches) {
			if why := b.refused(n, in); why != "" {
				return denyBy("sandbox", why), true
			}
		}
	}
	return Decision{}, false
}

// refused is why the sandbox cannot give n, or "".
func (b *Broker) refused(n need, in Inside) string {
	switch {
	case n.Net && in.Offline:
		return n.What + " the network, and this sandbox has none, so approving cannot make it work; " + n.Fix
	case n.Path != "" && !b.cfg.Sees(n.Path, true):
		return n.What + " " + n.Path + ", which the sandbox keeps read-only, so approving cannot make it work; " + n.Fix
	case n.Daemon != "":
		if _, err := os.Stat(n.Daemon); err != nil {
			return n.What + " " + n.Daemon + ", and no daemon listens there on this machine, so approving cannot make it work; " + n.Fix
		}
		if !b.cfg.Sees(n.Daemon, true) {
			return n.What + " " + n.Daemon + ", which the sandbox does not show, so approving cannot make it work; " + n.Fix
		}
	}
	return ""
}

const outsideFix = "if it is needed, run it yourself outside Sentinel and tell the coder to go on"

// needsOf is what one part of a shell line must do in the sandbox: the
// places its tool is known to write outside the workspace, the daemon it
// talks to, its redirections, and the network when it fetches.
func needsOf(p policy.Part, v policy.Verdict, in Inside, ctx policy.Context, fetches bool) []need {
	var out []need
	for _, r := range p.Redirects {
		if filepath.IsAbs(r) && !strings.HasPrefix(r, "/dev/") {
			out = append(out, need{Path: r, What: "it writes", Fix: "write inside the workspace instead"})
		}
	}
	if (fetches || strings.HasPrefix(p.Rule, "net.") || p.Rule == "git.network") && p.Decision == policy.Ask {
		out = append(out, need{Net: true, What: "it reaches", Fix: "it cannot be done in this run"})
	}
	if len(p.Argv) == 0 {
		return out
	}
	tool := filepath.Base(p.Argv[0])
	args := p.Argv[1:]
	home := in.Getenv("HOME")
	if home == "" {
		home = ctx.Home
	}
	switch tool {
	case "go":
		if verb, ops := goVerb(args); verb == "install" && slices.ContainsFunc(ops, func(o string) bool { return strings.Contains(o, "@") }) {
			out = append(out, need{Path: goBin(in, home), What: "go install puts the program in",
				Fix: "go run PKG@VERSION needs the same; " + outsideFix})
		}
	case "cargo":
		if len(args) > 0 && args[0] == "install" {
			root := in.Getenv("CARGO_INSTALL_ROOT")
			if root == "" {
				root = firstOf(in.Getenv("CARGO_HOME"), filepath.Join(home, ".cargo"))
			}
			out = append(out, need{Path: filepath.Join(root, "bin"), What: "cargo install puts the program in", Fix: outsideFix})
		}
	case "npm", "pnpm":
		if npmGlobal(args) {
			if dir := npmGlobalDir(tool, in); dir != "" {
				out = append(out, need{Path: dir, What: tool + " --global installs into",
					Fix: "install it into the project instead (" + tool + " install --save-dev NAME, then npx NAME), or " + outsideFix})
			}
		}
	case "pip", "pip3":
		if len(args) > 0 && args[0] == "install" && slices.Contains(args, "--user") {
			base := firstOf(in.Getenv("PYTHONUSERBASE"), filepath.Join(home, ".local"))
			out = append(out, need{Path: base, What: "pip install --user installs into",
				Fix: "install into a virtualenv in the project instead (python3 -m venv .venv, then .venv/bin/pip install NAME)"})
		}
	case "gem":
		out = append(out, gemNeeds(args, in, home)...)
	case "docker", "podman":
		if daemonVerb(args) {
			sock := dockerSocket(tool, in)
			if sock != "" {
				out = append(out, need{Daemon: sock, What: tool + " talks to its daemon at", Fix: outsideFix})
			}
		}
	}
	return out
}

// goVerb is go's command and its operands (the words that are not flags).
func goVerb(args []string) (string, []string) {
	if len(args) == 0 {
		return "", nil
	}
	var ops []string
	for _, a := range args[1:] {
		if !strings.HasPrefix(a, "-") {
			ops = append(ops, a)
		}
	}
	return args[0], ops
}

// goBin is where go install puts programs: GOBIN, else GOPATH's first
// entry's bin, else ~/go/bin.
func goBin(in Inside, home string) string {
	if b := in.Getenv("GOBIN"); b != "" {
		return b
	}
	if gp := in.Getenv("GOPATH"); gp != "" {
		return filepath.Join(filepath.SplitList(gp)[0], "bin")
	}
	return filepath.Join(home, "go", "bin")
}

func npmGlobal(args []string) bool {
	return slices.ContainsFunc(args, func(a string) bool {
		return a == "-g" || a == "--global" || a == "--location=global"
	})
}

// npmGlobalDir is where npm (or pnpm) installs global packages for the
// coder: npm_config_prefix's lib/node_modules, else beside the npm found
// on the coder's PATH (PREFIX/bin/npm → PREFIX/lib/node_modules); pnpm's
// global store lives under PNPM_HOME.
func npmGlobalDir(tool string, in Inside) string {
	if tool == "pnpm" {
		if h := in.Getenv("PNPM_HOME"); h != "" {
			return h
		}
		return ""
	}
	if p := in.Getenv("npm_config_prefix"); p != "" {
		return filepath.Join(p, "lib", "node_modules")
	}
	for _, d := range filepath.SplitList(in.Getenv("PATH")) {
		if !filepath.IsAbs(d) {
			continue
		}
		if st, err := os.Stat(filepath.Join(d, "npm")); err == nil && !st.IsDir() {
			return filepath.Join(filepath.Dir(d), "lib", "node_modules")
		}
	}
	return ""
}

// daemonVerb says whether a docker or podman command talks to the daemon:
// every command but the client's own help and version.
func daemonVerb(args []string) bool {
	for _, a := range args {
		switch {
		case a == "--help" || a == "-h" || a == "help" || a == "-v" || a == "--version":
			return false
		case strings.HasPrefix(a, "-"):
			continue
		case a == "version" && slices.Contains(args, "--client"), a == "context", a == "completion":
			return false
		default:
			return true
		}
	}
	return false
}

// dockerSocket is the unix socket the client reaches: DOCKER_HOST's
// unix:// path (CONTAINER_HOST for podman), else the default one; "" for
// a daemon reached over TCP (the network rule speaks for that).
func dockerSocket(tool string, in Inside) string {
	hostVar, def := "DOCKER_HOST", "/var/run/docker.sock"
	if tool == "podman" {
		hostVar, def = "CONTAINER_HOST", "/run/podman/podman.sock"
	}
	h := in.Getenv(hostVar)
	switch {
	case h == "":
		return def
	case strings.HasPrefix(h, "unix://"):
		return strings.TrimPrefix(h, "unix://")
	}
	return ""
}

func firstOf(s ...string) string {
	for _, x := range s {
		if x != "" {
			return x
		}
	}
	return ""
}

// registryStores are the places an ecosystem's installer must write what
// it fetches, found from the coder's environment.
var registryStores = map[string]func(in Inside, home string) (store, installer string){
	policy.EcoGo: func(in Inside, home string) (string, string) {
		if mc := in.Getenv("GOMODCACHE"); mc != "" {
			return mc, "go"
		}
		if gp := in.Getenv("GOPATH"); gp != "" {
			return filepath.Join(filepath.SplitList(gp)[0], "pkg", "mod"), "go"
		}
		return filepath.Join(home, "go", "pkg", "mod"), "go"
	},
	policy.EcoCargo: func(in Inside, home string) (string, string) {
		return filepath.Join(firstOf(in.Getenv("CARGO_HOME"), filepath.Join(home, ".cargo")), "registry"), "cargo"
	},
}

// registryOutOfReach answers a net request for a registry host of an
// ecosystem whose installer cannot store what it fetches in this sandbox.
func (b *Broker) registryOutOfReach(req Request, in Inside) (Decision, bool) {
	if b.cfg.Registries == nil || req.Host == "" {
		return Decision{}, false
	}
	reg := b.cfg.Registries()
	home := firstOf(in.Getenv("HOME"), b.cfg.Context.Home)
	for _, eco := range []string{policy.EcoGo, policy.EcoCargo} {
		hosts := reg.Hosts[eco]
		if len(hosts) == 0 {
			hosts = policy.DefaultRegistryHosts(eco)
		}
		if !registryHas(hosts, req.Host, req.Port) {
			continue
		}
		store, installer := registryStores[eco](in, home)
		// Writable is not enough: a store that does not exist yet under
		// the sandbox's private /tmp (HOME=$(mktemp -d) with no ~/go) is
		// not the host's, and go meets `mkdir $HOME/go: read-only file
		// system` or stores where nothing keeps it. Reading it back must
		// show the host's own place too.
		if b.cfg.Sees(store, true) && b.cfg.Sees(store, false) {
			return Decision{}, false
		}
		kept := ", which the sandbox keeps read-only"
		if _, err := os.Stat(store); err != nil {
			kept = ", which does not exist yet and which the sandbox keeps read-only (or its own, gone after the run)"
		}
		return denyBy("sandbox", req.Host+" serves "+installer+"'s downloads, and "+installer+" keeps them in "+store+
			kept+", so approving the host cannot make a download work; to add a dependency, run the "+
			installer+" command yourself outside Sentinel (what it stores there the coder can then read) and tell the coder to go on"), true
	}
	return Decision{}, false
}

// registryHas says whether host (and port, when the entry names one) is
// one of hosts ("host" or "host:port").
func registryHas(hosts []string, host string, port int) bool {
	for _, h := range hosts {
		name, p, ok := strings.Cut(h, ":")
		if !strings.EqualFold(name, host) {
			continue
		}
		if !ok || port == 0 || p == strconv.Itoa(port) {
			return true
		}
	}
	return false
}
