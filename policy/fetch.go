package policy

import (
	"net"
	"net/url"
	"path"
	"slices"
	"strings"
)

// Package registries a package install fetches from, by ecosystem.
const (
	EcoNPM    = "npm"
	EcoPython = "python"
	EcoGo     = "go"
	EcoCargo  = "cargo"
)

// DefaultRegistryHosts returns the hosts the installer of eco (EcoNPM, …)
// reaches when the project and the person configure no registry of their
// own; nil for an ecosystem the policy does not know. The slice is shared:
// do not change it.
func DefaultRegistryHosts(eco string) []string { return defaultRegistryHosts.get()[eco] }

var defaultRegistryHosts = lazy[map[string][]string]{build: func() map[string][]string {
	return map[string][]string{
		EcoNPM:    {"registry.npmjs.org"},
		EcoPython: {"pypi.org", "files.pythonhosted.org"},
		EcoGo:     {"proxy.golang.org", "sum.golang.org"},
		EcoCargo:  {"crates.io", "static.crates.io", "index.crates.io"},
	}
}}

// Registries are the registry hosts the project and the person configured,
// by ecosystem (.npmrc registry=, PIP_INDEX_URL or pip.conf, GOPROXY,
// cargo's source replacement), each a host or host:port. An ecosystem
// without an entry uses DefaultRegistryHosts. CargoVendored says cargo's
// crates are vendored (a source replaced by a directory): a build then
// fetches nothing.
type Registries struct {
	Hosts         map[string][]string
	CargoVendored bool
}

// hostsFor is the configured hosts of eco, else its defaults.
func (r Registries) hostsFor(eco string) []string {
	if hs := r.Hosts[eco]; len(hs) > 0 {
		return hs
	}
	return DefaultRegistryHosts(eco)
}

// Fetch is what a package install will need from the network.
type Fetch struct {
	Ecosystem string   // EcoNPM, …
	Command   string   // the install as written, for the card ("npm install")
	Hosts     []string // host or host:port, sorted, no repeats
}

// FetchHosts says which registry hosts a shell line will fetch from: the
// package installs in it (a precise set, below), each with the hosts of its
// ecosystem's registry as reg says, or as its own --registry/--index-url
// option says. ok is false for a line with no known install, or one the
// shell reader cannot read. Pure: the caller reads the configuration.
//
// The installs:
//   - npm install|i|ci|add|update, pnpm install|i|add|update|up, yarn
//     alone and yarn install|add|upgrade
//   - pip, pip3, python[3] -m pip: install, download; uv pip install, uv
//     sync, uv add, uv lock
//   - go get, go mod download, go mod tidy, go install PKG@VERSION
//   - cargo fetch|add|install|update|generate-lockfile, and cargo
//     build|check|test|run when the crates are not vendored; never with
//     --offline or --frozen
func FetchHosts(line string, reg Registries) (Fetch, bool) {
	l, err := ReadShell(line)
	if err != nil {
		return Fetch{}, false
	}
	var out Fetch
	seen := map[string]bool{}
	for _, c := range l.Commands() {
		argv := c.Program()
		if len(argv) == 0 {
			continue
		}
		eco, hosts := installHosts(argv, reg)
		if eco == "" {
			continue
		}
		if out.Ecosystem == "" {
			out.Ecosystem, out.Command = eco, strings.Join(argv, " ")
		}
		for _, h := range hosts {
			if !seen[h] {
				seen[h] = true
				out.Hosts = append(out.Hosts, h)
			}
		}
	}
	if len(out.Hosts) == 0 {
		return Fetch{}, false
	}
	slices.Sort(out.Hosts)
	return out, true
}

// installHosts is the ecosystem and hosts of one command, or "" when it is
// not a known install.
func installHosts(argv []string, reg Registries) (string, []string) {
	prog := path.Base(argv[0])
	args := argv[1:]
	sub := firstArg(args)
	switch prog {
	case "npm":
		if oneOf(sub, "install", "i", "ci", "add", "update") {
			return EcoNPM, optionHosts(args, reg.hostsFor(EcoNPM), "--registry")
		}
	case "pnpm":
		if oneOf(sub, "install", "i", "add", "update", "up") {
			return EcoNPM, optionHosts(args, reg.hostsFor(EcoNPM), "--registry")
		}
	case "yarn":
		if len(args) == 0 || oneOf(sub, "install", "add", "upgrade") {
			return EcoNPM, optionHosts(args, reg.hostsFor(EcoNPM), "--registry")
		}
	case "pip", "pip3":
		return pipHosts(args, reg)
	case "python", "python3":
		if len(args) >= 2 && args[0] == "-m" && (args[1] == "pip" || args[1] == "pip3") {
			return pipHosts(args[2:], reg)
		}
	case "uv":
		switch {
		case sub == "pip" && len(args) > 1 && firstArg(args[1:]) == "install":
			return EcoPython, optionHosts(args, reg.hostsFor(EcoPython), "--index-url", "-i", "--extra-index-url", "--default-index", "--index")
		case oneOf(sub, "sync", "add", "lock") && !slices.Contains(args, "--offline"):
			return EcoPython, optionHosts(args, reg.hostsFor(EcoPython), "--index-url", "-i", "--extra-index-url", "--default-index", "--index")
		}
	case "go":
		switch {
		case sub == "get", sub == "mod" && len(args) > 1 && oneOf(firstArg(args[1:]), "download", "tidy"):
			return EcoGo, reg.hostsFor(EcoGo)
		case sub == "install" && slices.ContainsFunc(args[1:], func(a string) bool { return strings.Contains(a, "@") && !strings.HasPrefix(a, "-") }):
			return EcoGo, reg.hostsFor(EcoGo)
		}
	case "cargo":
		if slices.Contains(args, "--offline") || slices.Contains(args, "--frozen") {
			return "", nil
		}
		switch {
		case oneOf(sub, "fetch", "add", "install", "update", "generate-lockfile"):
			return EcoCargo, reg.hostsFor(EcoCargo)
		case oneOf(sub, "build", "b", "check", "c", "test", "t", "run", "r") && !reg.CargoVendored:
			return EcoCargo, reg.hostsFor(EcoCargo)
		}
	}
	return "", nil
}

func pipHosts(args []string, reg Registries) (string, []string) {
	if !oneOf(firstArg(args), "install", "download") {
		return "", nil
	}
	if slices.Contains(args, "--no-index") {
		return "", nil
	}
	return EcoPython, optionHosts(args, reg.hostsFor(EcoPython), "--index-url", "-i", "--extra-index-url")
}

// firstArg is the first word that is not an option ("" when none).
func firstArg(args []string) string {
	for _, a := range args {
		if !strings.HasPrefix(a, "-") {
			return a
		}
	}
	return ""
}

func oneOf(s string, set ...string) bool { return slices.Contains(set, s) }

// optionHosts are the hosts a command's own registry options name (the
// first of names replaces the default; extra-index options add to it),
// else def.
func optionHosts(args []string, def []string, names ...string) []string {
	var main, extra []string
	for i := 0; i < len(args); i++ {
		name, val, inline := strings.Cut(args[i], "=")
		if !slices.Contains(names, name) {
			continue
		}
		if !inline {
			if i+1 >= len(args) {
				break
			}
			i++
			val = args[i]
		}
		h, ok := RegistryHost(val)
		if !ok {
			continue
		}
		if strings.Contains(name, "extra") {
			extra = append(extra, h)
		} else {
			main = append(main, h)
		}
	}
	if len(main) == 0 {
		main = def
	}
	return append(slices.Clone(main), extra...)
}

// RegistryHost is the host (host:port when the port is not the scheme's
// default) of a registry URL as configuration files and options write it
// (https://registry.example.com/npm/, sparse+https://…, a bare host); ok
// is false for anything that is not a plain host name or address.
func RegistryHost(raw string) (string, bool) {
	raw = strings.TrimSpace(raw)
	raw = strings.TrimPrefix(raw, "sparse+")
	raw = strings.TrimPrefix(raw, "registry+")
	if !strings.Contains(raw, "://") {
		raw = "https://" + raw
	}
	u, err := url.Parse(raw)
	if err != nil || u.Hostname() == "" || (u.Scheme != "http" && u.Scheme != "https") {
		return "", false
	}
	host := strings.ToLower(u.Hostname())
	if strings.ContainsAny(host, " /@\\") || strings.Trim(host, "abcdefghijklmnopqrstuvwxyz0123456789.-:[]") != "" {
		return "", false
	}
	port := u.Port()
	if port == "" || (u.Scheme == "https" && port == "443") || (u.Scheme == "http" && port == "80") {
		return host, true
	}
	return net.JoinHostPort(host, port), true
}
