package runner

import (
	"context"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/sentinelhq/sentinel/runner/claude"
	"github.com/sentinelhq/sentinel/runner/coder"
	"github.com/sentinelhq/sentinel/runner/codex"
	"github.com/sentinelhq/sentinel/sandbox"
)

// closedURL is an http URL on a local port nothing listens on.
func closedURL(t *testing.T) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close()
	return "http://" + addr + "/v1"
}

// cleanCoderEnv gives the test an empty home and no coder variables.
func cleanCoderEnv(t *testing.T) string {
	t.Helper()
	home := t.TempDir()
	t.Setenv("HOME", home)
	for _, v := range []string{"ANTHROPIC_API_KEY", "ANTHROPIC_AUTH_TOKEN", "CLAUDE_CODE_OAUTH_TOKEN", "ANTHROPIC_BASE_URL",
		"CLAUDE_CONFIG_DIR", "CLAUDE_CODE_USE_BEDROCK", "CLAUDE_CODE_USE_VERTEX", "CLAUDE_CODE_USE_FOUNDRY",
		"OPENAI_API_KEY", "OPENAI_BASE_URL", "CODEX_HOME", "GEMINI_API_KEY", "GOOGLE_API_KEY", "GOOGLE_GEMINI_BASE_URL",
		"GOOGLE_GENAI_USE_VERTEXAI", "GOOGLE_GENAI_USE_GCA", "GOOGLE_CLOUD_PROJECT", "GOOGLE_APPLICATION_CREDENTIALS"} {
		t.Setenv(v, "")
	}
	return home
}

func TestPreflightModelRefusesADeadEndpoint(t *testing.T) {
	dead := closedURL(t)
	answering := apiWithoutKey(t)
	wrong := answers404(t)
	for _, tc := range []struct {
		name    string
		adapter func() Adapter
		env     map[string]string
		config  string // the person's ~/.codex/config.toml
		want    []string
	}{
		{name: "claude dead", adapter: func() Adapter { return claude.New(claude.Options{}) },
			env:  map[string]string{"ANTHROPIC_API_KEY": "k", "ANTHROPIC_BASE_URL": dead},
			want: []string{"coder claude: its model endpoint " + dead + " is not reachable: connection refused", "point ANTHROPIC_BASE_URL at one"}},
		{name: "claude answering", adapter: func() Adapter { return claude.New(claude.Options{}) },
			env: map[string]string{"ANTHROPIC_API_KEY": "k", "ANTHROPIC_BASE_URL": answering.URL}},
		// Something answers there, but 404 for every path: Claude Code
		// would start, get model_not_found and wait for a person.
		{name: "claude at an endpoint answering 404", adapter: func() Adapter { return claude.New(claude.Options{}) },
			env: map[string]string{"ANTHROPIC_API_KEY": "k", "ANTHROPIC_BASE_URL": wrong.URL},
			want: []string{"coder claude: its model endpoint " + wrong.URL + " answers HTTP 404 to GET /v1/models, GET /models, POST /v1/messages, POST /messages: it is not the Anthropic Messages API",
				"point ANTHROPIC_BASE_URL at one"}},
		{name: "claude no key", adapter: func() Adapter { return claude.New(claude.Options{}) },
			env:  map[string]string{"ANTHROPIC_BASE_URL": answering.URL},
			want: []string{"coder claude: no API key and no sign-in", "ANTHROPIC_API_KEY"}},
		{name: "codex dead", adapter: func() Adapter { return codex.New(codex.Options{Provider: codex.ProviderFromEnv()}) },
			env:  map[string]string{"OPENAI_API_KEY": "k", "OPENAI_BASE_URL": dead},
			want: []string{"coder codex: its model endpoint " + dead + " is not reachable: connection refused", "point OPENAI_BASE_URL at one"}},
		{name: "codex answering", adapter: func() Adapter { return codex.New(codex.Options{Provider: codex.ProviderFromEnv()}) },
			env: map[string]string{"OPENAI_API_KEY": "k", "OPENAI_BASE_URL": answering.URL}},
		{name: "codex at an endpoint answering 404", adapter: func() Adapter { return codex.New(codex.Options{Provider: codex.ProviderFromEnv()}) },
			env: map[string]string{"OPENAI_API_KEY": "k", "OPENAI_BASE_URL": wrong.URL + "/v1"},
			want: []string{"coder codex: its model endpoint " + wrong.URL + "/v1 answers HTTP 404 to GET /models, POST /responses, POST /chat/completions: it is not the OpenAI API",
				"point OPENAI_BASE_URL at one"}},
		{name: "codex no key", adapter: func() Adapter { return codex.New(codex.Options{Provider: codex.ProviderFromEnv()}) },
			env:  map[string]string{"OPENAI_BASE_URL": answering.URL},
			want: []string{"coder codex: no API key and no sign-in", "OPENAI_API_KEY", "codex login"}},
		{name: "codex person's provider dead", adapter: func() Adapter { return codex.New(codex.Options{Provider: codex.ProviderFromEnv()}) },
			config: "model_provider = \"gw\"\n[model_providers.gw]\nname = \"gw\"\nbase_url = \"" + dead + "\"\n",
			want:   []string{"coder codex: its model endpoint " + dead + " is not reachable", "base_url of [model_providers.gw]"}},
		{name: "gemini over acp dead", adapter: geminiACP,
			env:  map[string]string{"GEMINI_API_KEY": "k", "GOOGLE_GEMINI_BASE_URL": dead},
			want: []string{"coder gemini: its model endpoint " + dead + " is not reachable: connection refused", "point GOOGLE_GEMINI_BASE_URL at one"}},
		{name: "gemini over acp answering", adapter: geminiACP,
			env: map[string]string{"GEMINI_API_KEY": "k", "GOOGLE_GEMINI_BASE_URL": answering.URL}},
		{name: "gemini over acp at an endpoint answering 404", adapter: geminiACP,
			env:  map[string]string{"GEMINI_API_KEY": "k", "GOOGLE_GEMINI_BASE_URL": wrong.URL},
			want: []string{"coder gemini: its model endpoint " + wrong.URL + " answers HTTP 404 to GET /v1beta/models, POST /v1beta/models/gemini-2.5-flash:countTokens: it is not the Gemini API"}},
		{name: "gemini over acp no key", adapter: geminiACP,
			want: []string{"coder gemini: no API key and no sign-in", "GEMINI_API_KEY"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			home := cleanCoderEnv(t)
			for k, v := range tc.env {
				t.Setenv(k, v)
			}
			if tc.config != "" {
				write(t, filepath.Join(home, ".codex", "config.toml"), tc.config)
			}
			a := tc.adapter() // after the environment: codex reads it in New
			err := preflightModel(context.Background(), a, nil)
			if len(tc.want) == 0 {
				if err != nil {
					t.Fatalf("refused: %v", err)
				}
				return
			}
			if err == nil {
				t.Fatal("the preflight passed")
			}
			for _, w := range tc.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q does not say %q", err, w)
				}
			}
			if strings.Contains(err.Error(), "\n") {
				t.Errorf("error is not one line: %q", err)
			}
		})
	}
}

// A run whose coder's endpoint is dead fails in Start and leaves no run
// directory (no recovery entry).
func TestStartWithADeadEndpointLeavesNoRun(t *testing.T) {
	p := stopRepo(t)
	home := cleanCoderEnv(t)
	bin := filepath.Join(home, "bin")
	marker := filepath.Join(home, "codex-ran")
	// A codex that must never run on the host: the preflight reads files only.
	write(t, filepath.Join(bin, "codex"), "#!/bin/sh\ntouch "+marker+"\n")
	if err := os.Chmod(filepath.Join(bin, "codex"), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", bin+string(os.PathListSeparator)+os.Getenv("PATH"))
	t.Setenv("OPENAI_API_KEY", "k")
	t.Setenv("OPENAI_BASE_URL", closedURL(t))
	_, err := Start(context.Background(), Options{Project: p, Task: "x",
		Coder: CoderOptions{Name: "codex"}, Sandbox: SandboxOptions{Mode: sandbox.ModeOff}})
	if err == nil || !strings.Contains(err.Error(), "is not reachable") {
		t.Fatalf("Start: %v, want the endpoint refused", err)
	}
	if ents, _ := os.ReadDir(p.RunsDir()); len(ents) != 0 {
		t.Fatalf("a run that could not start left %d run directories", len(ents))
	}
	if _, err := os.Stat(marker); err == nil {
		t.Fatal("the preflight ran codex on the host")
	}
}

// apiWithoutKey is a model API asked without a key, under any base path:
// 401 for its models lists and calls, 404 else.
func apiWithoutKey(t *testing.T) *httptest.Server {
	t.Helper()
	has := map[string]bool{"models": true, "messages": true, "responses": true, "completions": true}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if has[path.Base(r.URL.Path)] {
			w.WriteHeader(http.StatusUnauthorized)
			return
		}
		w.WriteHeader(http.StatusNotFound)
	}))
	t.Cleanup(srv.Close)
	return srv
}

// answers404 is an endpoint that answers, but 404 for every path (as a
// gateway or a network's catch-all does).
func answers404(t *testing.T) *httptest.Server {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { w.WriteHeader(http.StatusNotFound) }))
	t.Cleanup(srv.Close)
	return srv
}

func geminiACP() Adapter {
	a, err := NewAdapter("acp", "", []string{"/usr/local/bin/gemini", "--acp"})
	if err != nil {
		panic(err)
	}
	return a
}

// An https endpoint whose certificate is not trusted here still answered:
// the coder has its own CA settings (NODE_EXTRA_CA_CERTS, SSL_CERT_FILE).
func TestReachableCountsAnUntrustedCertificateAsAnAnswer(t *testing.T) {
	t.Parallel()
	srv := httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {}))
	defer srv.Close()
	// A minute, not reachTimeout: a bound on a hang, as the TLS handshake
	// can take seconds on a loaded machine with other tests running.
	if err := reachable(context.Background(), srv.URL+"/v1", time.Minute); err != nil {
		t.Fatalf("an https server with its own certificate: %v", err)
	}
	if err := reachable(context.Background(), closedURL(t), reachTimeout); err == nil {
		t.Fatal("a closed port is reachable")
	}
}

// A gateway that has the coder's call but no models list is the API: the
// probe's POST finds it (no credentials sent), and a list that answers
// spares the call.
func TestProbeFindsTheCallWhenTheListIs404(t *testing.T) {
	t.Parallel()
	var got []string
	var mu sync.Mutex
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		got = append(got, r.Method+" "+r.URL.Path+" key="+r.Header.Get("x-api-key")+r.Header.Get("Authorization"))
		mu.Unlock()
		if r.Method == http.MethodPost && r.URL.Path == "/gw/v1/messages" {
			w.WriteHeader(http.StatusBadRequest)
			return
		}
		w.WriteHeader(http.StatusNotFound)
	}))
	defer srv.Close()
	// A minute: a bound on a hang, not on speed.
	if err := probeAPI(context.Background(), srv.URL+"/gw/", coder.AnthropicProbe, time.Minute); err != nil {
		t.Fatalf("a gateway with the call only: %v", err)
	}
	want := []string{"GET /gw/v1/models key=", "GET /gw/models key=", "POST /gw/v1/messages key="}
	if strings.Join(got, "; ") != strings.Join(want, "; ") {
		t.Errorf("asked %q, want %q", got, want)
	}
	err := probeAPI(context.Background(), srv.URL, coder.AnthropicProbe, time.Minute)
	if err == nil || !strings.Contains(err.Error(), "answers HTTP 404 to GET /v1/models, GET /models, POST /v1/messages, POST /messages: it is not the Anthropic Messages API") {
		t.Errorf("at the root, where every path is 404: %v", err)
	}
}
