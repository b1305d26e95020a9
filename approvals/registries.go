package approvals

import (
	_ "embed"
	"fmt"
	"slices"
	"strings"
	"sync"

	"github.com/BurntSushi/toml"
)

// Registry is a package ecosystem's set of hosts, remembered together (a
// preset the remember chooser offers when a request names one of them).
type Registry struct {
	Name  string   `toml:"name"`
	Label string   `toml:"label"` // "the Go module registries"
	Hosts []string `toml:"hosts"`
}

//go:embed registries.toml
var registriesTOML string

// registries is decoded on first use, not at package init, which every
// sentinel process pays (each hook call, each sandbox helper start).
var registries = sync.OnceValue(func() []Registry { return mustRegistries(registriesTOML) })

func mustRegistries(src string) []Registry {
	rs, err := parseRegistries(src)
	if err != nil {
		panic("approvals: registries.toml: " + err.Error())
	}
	return rs
}

// parseRegistries reads and checks the preset table: every host a valid
// exact host, no host in two registries.
func parseRegistries(src string) ([]Registry, error) {
	var doc struct {
		Registry []Registry `toml:"registry"`
	}
	md, err := toml.Decode(src, &doc)
	if err != nil {
		return nil, err
	}
	if und := md.Undecoded(); len(und) > 0 {
		return nil, fmt.Errorf("unknown key %s (known: name, label, hosts)", und[0])
	}
	seen := map[string]string{}
	for _, r := range doc.Registry {
		if r.Name == "" || r.Label == "" || len(r.Hosts) == 0 {
			return nil, fmt.Errorf("registry %q needs a name, a label and hosts", r.Name)
		}
		for _, h := range r.Hosts {
			if h != strings.ToLower(h) || strings.Contains(h, ":") {
				return nil, fmt.Errorf("registry %s: host %q must be a lower-case host name without a port", r.Name, h)
			}
			if err := (Match{Host: h}).Validate(); err != nil {
				return nil, fmt.Errorf("registry %s: %w", r.Name, err)
			}
			if o, dup := seen[h]; dup {
				return nil, fmt.Errorf("host %s is in registries %s and %s", h, o, r.Name)
			}
			seen[h] = r.Name
		}
	}
	return doc.Registry, nil
}

// Registries is the preset table.
func Registries() []Registry {
	all := registries()
	out := make([]Registry, len(all))
	for i, r := range all {
		out[i] = Registry{Name: r.Name, Label: r.Label, Hosts: slices.Clone(r.Hosts)}
	}
	return out
}

// RegistryFor is the registry whose hosts include host, if any.
func RegistryFor(host string) (Registry, bool) {
	host = strings.ToLower(strings.TrimSuffix(strings.TrimSpace(host), "."))
	for _, r := range Registries() {
		if slices.Contains(r.Hosts, host) {
			return r, true
		}
	}
	return Registry{}, false
}

// RegistryGrant is the grant that remembers every host of the registry a
// net request names: Match for the first host, Also for the rest. False
// when the request names no registry host.
func RegistryGrant(req Request) (Registry, Match, []Match, bool) {
	if req.Kind != "net" {
		return Registry{}, Match{}, nil, false
	}
	host, port := requestHost(req)
	if port != 0 && port != 80 && port != 443 {
		return Registry{}, Match{}, nil, false
	}
	r, ok := RegistryFor(host)
	if !ok {
		return Registry{}, Match{}, nil, false
	}
	var also []Match
	for _, h := range r.Hosts[1:] {
		also = append(also, Match{Host: h})
	}
	return r, Match{Host: r.Hosts[0]}, also, true
}

// isRegistryGrant reports whether g remembers exactly the registry preset
// RegistryGrant offers for req.
func isRegistryGrant(req Request, g GrantSpec) bool {
	_, m, also, ok := RegistryGrant(req)
	if !ok || g.Match.Host != m.Host || len(g.Also) != len(also) {
		return false
	}
	for i := range also {
		if g.Also[i].Host != also[i].Host || g.Also[i].Prefix != nil || g.Also[i].Exact != nil || g.Also[i].Path != "" {
			return false
		}
	}
	return g.Match.Prefix == nil && g.Match.Exact == nil && g.Match.Path == ""
}
