package runner

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"net"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"

	"github.com/BurntSushi/toml"

	"github.com/sentinelhq/sentinel/policy"
)

// maxConfigFile bounds a registry configuration file read for the card: a
// workspace file is the coder's to write.
const maxConfigFile = 1 << 20

// registries reads the package registries a package install in this run
// will use, for the approval card (policy.FetchHosts): the workspace's own
// files first (the coder's install reads them there, and the card shows
// whatever host they name), then the person's files and environment.
// Unreadable or odd entries are skipped: the card then names the defaults,
// and the proxy still asks about any other host.
func (r *containment) registries() policy.Registries {
	home, _ := os.UserHomeDir()
	wsFile := func(...string) string { return "" }
	if r.ws != nil {
		wsFile = r.ws.mergedPath
	}
	return readRegistries(wsFile, home, os.Getenv)
}

// readRegistries reads the registries; wsFile says where a file of the
// workspace is read on the host ("" when there is none).
func readRegistries(wsFile func(parts ...string) string, home string, getenv func(string) string) policy.Registries {
	reg := policy.Registries{Hosts: map[string][]string{}}
	// a file under an unknown directory is not read (never a relative path)
	under := func(dir string, parts ...string) string {
		if dir == "" {
			return ""
		}
		return filepath.Join(append([]string{dir}, parts...)...)
	}
	add := func(eco, raw string) {
		if h, ok := policy.RegistryHost(raw); ok {
			for _, have := range reg.Hosts[eco] {
				if have == h {
					return
				}
			}
			reg.Hosts[eco] = append(reg.Hosts[eco], h)
		}
	}
	// npm: the first registry= wins (project, then user, then environment);
	// scoped registries (@scope:registry=) are needed too.
	var npmMain string
	for _, f := range []string{wsFile(".npmrc"), under(home, ".npmrc")} {
		for _, kv := range iniPairs(f) {
			switch {
			case kv[0] == "registry" && npmMain == "":
				npmMain = kv[1]
			case strings.HasPrefix(kv[0], "@") && strings.HasSuffix(kv[0], ":registry"):
				add(policy.EcoNPM, kv[1])
			}
		}
	}
	npmMain = firstNonEmpty(npmMain, getenv("NPM_CONFIG_REGISTRY"), getenv("npm_config_registry"))
	if npmMain != "" {
		scoped := reg.Hosts[policy.EcoNPM]
		reg.Hosts[policy.EcoNPM] = nil
		add(policy.EcoNPM, npmMain)
		for _, h := range scoped {
			add(policy.EcoNPM, h)
		}
	} else if len(reg.Hosts[policy.EcoNPM]) > 0 {
		reg.Hosts[policy.EcoNPM] = append(reg.Hosts[policy.EcoNPM], policy.DefaultRegistryHosts(policy.EcoNPM)...)
	}
	// Python: the environment, then pip.conf.
	index := firstNonEmpty(getenv("PIP_INDEX_URL"), getenv("UV_DEFAULT_INDEX"), getenv("UV_INDEX_URL"))
	extra := strings.Fields(getenv("PIP_EXTRA_INDEX_URL"))
	for _, f := range []string{under(home, ".config", "pip", "pip.conf"), under(home, ".pip", "pip.conf")} {
		for _, kv := range iniPairs(f) {
			switch kv[0] {
			case "index-url":
				index = firstNonEmpty(index, kv[1])
			case "extra-index-url":
				extra = append(extra, strings.Fields(kv[1])...)
			}
		}
	}
	if index != "" || len(extra) > 0 {
		if index != "" {
			add(policy.EcoPython, index)
		} else {
			reg.Hosts[policy.EcoPython] = append(reg.Hosts[policy.EcoPython], policy.DefaultRegistryHosts(policy.EcoPython)...)
		}
		for _, e := range extra {
			add(policy.EcoPython, e)
		}
	}
	// Go: GOPROXY's proxies (not direct or off) and the checksum database.
	if gp := getenv("GOPROXY"); gp != "" {
		for _, p := range strings.FieldsFunc(gp, func(r rune) bool { return r == ',' || r == '|' }) {
			if p = strings.TrimSpace(p); p != "direct" && p != "off" {
				add(policy.EcoGo, p)
			}
		}
		if len(reg.Hosts[policy.EcoGo]) > 0 {
			switch sum := getenv("GOSUMDB"); {
			case sum == "off":
			case sum != "":
				add(policy.EcoGo, strings.Fields(sum)[len(strings.Fields(sum))-1])
			default:
				add(policy.EcoGo, "sum.golang.org")
			}
		}
	}
	// cargo: crates-io replaced by another registry, or by vendored sources.
	for _, f := range []string{wsFile(".cargo", "config.toml"), wsFile(".cargo", "config"), under(home, ".cargo", "config.toml")} {
		hosts, vendored, ok := cargoSource(f)
		if !ok {
			continue
		}
		reg.CargoVendored = vendored
		for _, h := range hosts {
			add(policy.EcoCargo, h)
		}
		break
	}
	return reg
}

// iniPairs are the key = value lines of an .npmrc or pip.conf (sections
// ignored), lower-cased keys; nil when the file cannot be read.
func iniPairs(path string) [][2]string {
	b, err := readSmall(path)
	if err != nil {
		return nil
	}
	var out [][2]string
	sc := bufio.NewScanner(bytes.NewReader(b))
	for sc.Scan() {
		l := strings.TrimSpace(sc.Text())
		if l == "" || l[0] == '#' || l[0] == ';' || l[0] == '[' {
			continue
		}
		k, v, ok := strings.Cut(l, "=")
		if !ok {
			continue
		}
		out = append(out, [2]string{strings.ToLower(strings.TrimSpace(k)), strings.Trim(strings.TrimSpace(v), `"'`)})
	}
	return out
}

// cargoSource reads cargo's source replacement for crates-io: the
// replacing registry's hosts, or vendored (a directory source). ok is
// false when the file does not replace crates-io.
func cargoSource(path string) (hosts []string, vendored, ok bool) {
	b, err := readSmall(path)
	if err != nil {
		return nil, false, false
	}
	var doc struct {
		Source map[string]struct {
			ReplaceWith string `toml:"replace-with"`
			Registry    string `toml:"registry"`
			Directory   string `toml:"directory"`
		} `toml:"source"`
	}
	if _, err := toml.Decode(string(b), &doc); err != nil {
		return nil, false, false
	}
	name := doc.Source["crates-io"].ReplaceWith
	if name == "" {
		return nil, false, false
	}
	src := doc.Source[name]
	if src.Directory != "" {
		return nil, true, true
	}
	if src.Registry == "" {
		return nil, false, false
	}
	return []string{src.Registry}, false, true
}

// readSmall reads a regular file of at most maxConfigFile bytes. It is
// opened without blocking and checked once open, so a FIFO or a device
// planted in the workspace (or swapped in after a check) is never read.
func readSmall(path string) ([]byte, error) {
	if path == "" {
		return nil, os.ErrNotExist
	}
	f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if !st.Mode().IsRegular() || st.Size() > maxConfigFile {
		return nil, os.ErrInvalid
	}
	return io.ReadAll(io.LimitReader(f, maxConfigFile))
}

func firstNonEmpty(s ...string) string {
	for _, x := range s {
		if x != "" {
			return x
		}
	}
	return ""
}

// registryDenied is the reason the proxy gives, and the coder's agent is
// told, when a package registry's host was denied: which host, why, and
// that it is the registry an install needs, so the model does not read a
// bare 403 as a broken registry. Any other host's reason is unchanged.
func registryDenied(reason, host string, port int, reg policy.Registries) string {
	hp := host
	if port != 0 && port != 80 && port != 443 {
		hp = net.JoinHostPort(host, strconv.Itoa(port))
	}
	for _, eco := range []string{policy.EcoNPM, policy.EcoPython, policy.EcoGo, policy.EcoCargo} {
		hosts := append(slices.Clone(reg.Hosts[eco]), policy.DefaultRegistryHosts(eco)...)
		if slices.Contains(hosts, hp) {
			return fmt.Sprintf("%s (%s is the %s package registry: a package install needs it, and Sentinel did not allow it; do not retry with another registry — tell the person what the install needs)", reason, hp, eco)
		}
	}
	return reason
}
