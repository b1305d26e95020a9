package policy

import (
	"strings"
	"testing"
)

func TestFetchHostsNamesEachInstallsRegistry(t *testing.T) {
	custom := Registries{Hosts: map[string][]string{EcoNPM: {"npm.corp.example:8443"}, EcoGo: {"goproxy.corp.example"}}}
	for _, tc := range []struct {
		line string
		reg  Registries
		want string // hosts joined by a space; "" for no fetch
	}{
		{"npm install", Registries{}, "registry.npmjs.org"},
		{"npm i left-pad", Registries{}, "registry.npmjs.org"},
		{"npm ci", custom, "npm.corp.example:8443"},
		{"cd web && npm install --registry https://r.example.com/npm/", Registries{}, "r.example.com"},
		{"npm install --registry=http://127.0.0.1:4873", Registries{}, "127.0.0.1:4873"},
		{"pnpm add react", Registries{}, "registry.npmjs.org"},
		{"yarn", Registries{}, "registry.npmjs.org"},
		{"yarn add x", Registries{}, "registry.npmjs.org"},
		{"pip install requests", Registries{}, "files.pythonhosted.org pypi.org"},
		{"python3 -m pip install -r requirements.txt", Registries{}, "files.pythonhosted.org pypi.org"},
		{"pip install -i https://pypi.corp.example/simple x", Registries{}, "pypi.corp.example"},
		{"pip install --extra-index-url https://extra.example/simple x", Registries{}, "extra.example files.pythonhosted.org pypi.org"},
		{"uv pip install x", Registries{}, "files.pythonhosted.org pypi.org"},
		{"uv sync", Registries{}, "files.pythonhosted.org pypi.org"},
		{"go get golang.org/x/text", Registries{}, "proxy.golang.org sum.golang.org"},
		{"go mod download", custom, "goproxy.corp.example"},
		{"go install golang.org/x/tools/cmd/goimports@latest", Registries{}, "proxy.golang.org sum.golang.org"},
		{"cargo build", Registries{}, "crates.io index.crates.io static.crates.io"},
		{"cargo add serde", Registries{CargoVendored: true}, "crates.io index.crates.io static.crates.io"},
		{"timeout 60 npm install", Registries{}, "registry.npmjs.org"},
		// not fetching, or not knowably so
		{"npm test", Registries{}, ""},
		{"npm run build", Registries{}, ""},
		{"yarn build", Registries{}, ""},
		{"yarn --version", Registries{}, ""},
		{"pip list", Registries{}, ""},
		{"pip install --no-index ./wheel.whl", Registries{}, ""},
		{"go build ./...", Registries{}, ""},
		{"go install ./cmd/x", Registries{}, ""},
		{"go test ./...", Registries{}, ""},
		{"cargo build --offline", Registries{}, ""},
		{"cargo test --frozen", Registries{}, ""},
		{"cargo build", Registries{CargoVendored: true}, ""},
		{"uv sync --offline", Registries{}, ""},
		{"ls && echo npm install", Registries{}, ""},
		{"npm install --registry 'https://evil.example/ x'", Registries{}, "evil.example"},
		{"npm install 'unterminated", Registries{}, ""},
	} {
		f, ok := FetchHosts(tc.line, tc.reg)
		got := strings.Join(f.Hosts, " ")
		if ok != (tc.want != "") || got != tc.want {
			t.Errorf("FetchHosts(%q) = %q, %v; want %q", tc.line, got, ok, tc.want)
		}
	}
}

func TestRegistryHostTakesOnlyPlainHosts(t *testing.T) {
	for in, want := range map[string]string{
		"https://registry.npmjs.org/":      "registry.npmjs.org",
		"sparse+https://index.crates.io/":  "index.crates.io",
		"http://localhost:4873":            "localhost:4873",
		"https://Mirror.Example.COM:443/x": "mirror.example.com",
		"pypi.corp.example":                "pypi.corp.example",
		"file:///srv/registry":             "",
		"https://user:pw@host.example/":    "host.example",
		"https://host.example\u200b/":      "",
		"ftp://h.example/":                 "",
	} {
		got, ok := RegistryHost(in)
		if got != want || ok != (want != "") {
			t.Errorf("RegistryHost(%q) = %q, %v; want %q", in, got, ok, want)
		}
	}
}
