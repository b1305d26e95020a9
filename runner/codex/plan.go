package codex

import (
	"fmt"
	"maps"
	"slices"
	"sort"
	"strings"

	"github.com/sentinelhq/sentinel/internal/agentutil"
)

// Plan is the run's Codex setup: which model provider and model it uses,
// what of the person's own setup comes along, and what the sandbox must
// let through for it. NewPlan makes it; Config is the config.toml it
// becomes.
type Plan struct {
	// ProviderID is model_provider; Provider is the [model_providers.<id>]
	// table written for it (nil: Codex's built-in "openai").
	ProviderID string
	Provider   map[string]any
	Model      string
	// BaseURL is where the model traffic goes (its host is allowed).
	BaseURL string
	// EnvKeys are the variables the provider reads its key and headers
	// from: passed into the sandbox, and kept out of the coder's commands.
	EnvKeys []string
	// Hosts are further hosts the sign-in needs (ChatGPT token refresh).
	Hosts []string
	// Auth says the person's auth.json is copied into the run's CODEX_HOME.
	Auth bool
	// Keep are the person's settings taken over as they are (keepKeys,
	// keepTUIKeys under "tui").
	Keep map[string]any
	// MCP are the person's MCP servers, each made to ask before every tool
	// call (askEveryTool).
	MCP map[string]any
	// Instructions is developer_instructions: the person's own, then
	// Sentinel's text about where the coder is.
	Instructions string
	// InPlace is the project an interactive session works in (sentinel
	// exec); "" for the app-server. It adds inPlaceSettings.
	InPlace string
}

// keepKeys are the person's settings a run keeps: how the model is asked, and how project
// docs are read. Every other key is dropped, so nothing the person's file
// says about approvals, sandboxing, notify commands, hooks, trusted projects,
// profiles or shell environment reaches the run (Config sets those).
var keepKeys = []string{"model_reasoning_effort", "model_reasoning_summary", "model_verbosity",
	"model_context_window", "model_auto_compact_token_limit", "service_tier",
	"project_doc_max_bytes", "project_doc_fallback_filenames"}

// keepTUIKeys are the person's [tui] settings a run keeps: animations is
// their "Animations" setting (Settings > Effects in the TUI; 0.171.0 checks
// it is a boolean), which stills the welcome screen, the working indicator
// and transitions. It only changes how Codex draws its screen, and a person
// who turned motion off for their eyes keeps it off under Sentinel (a
// waiting Codex then also stops redrawing, and Sentinel's coder pane with it).
var keepTUIKeys = []string{"animations"}

// openaiID is Codex's built-in provider.
const openaiID = "openai"

// chatgptBaseURL is where Codex sends a ChatGPT sign-in's model traffic, and
// chatgptAuthHost where it refreshes the sign-in (0.171.0).
const (
	chatgptBaseURL  = "https://chatgpt.com/backend-api/codex"
	chatgptAuthHost = "auth.openai.com:443"
)

// NewPlan decides a run's provider and settings. The person's model_provider
// wins when it names one of their [model_providers]; with
// the built-in OpenAI provider, OPENAI_API_KEY / OPENAI_BASE_URL (env, from
// ProviderFromEnv) win, else the person's auth.json sign-in is used.
// SENTINEL_CODEX_MODEL (env.Model) wins over the person's model.
func NewPlan(env Provider, person *Person, whereAmI string) (Plan, error) {
	pl := Plan{Model: person.str("model"), Keep: map[string]any{}}
	if env.Model != "" {
		pl.Model = env.Model
	}
	id := person.str("model_provider")
	switch {
	case id != "" && id != openaiID:
		t, ok := person.table("model_providers")[id].(map[string]any)
		if !ok {
			return Plan{}, fmt.Errorf("codex: your %s/config.toml selects model_provider %q but defines no [model_providers.%s]; Sentinel runs providers defined there, or OpenAI's (define it, or unset model_provider)", person.Dir, id, id)
		}
		pl.ProviderID, pl.Provider = id, maps.Clone(t)
		pl.BaseURL, _ = t["base_url"].(string)
		if pl.BaseURL == "" {
			return Plan{}, fmt.Errorf("codex: [model_providers.%s] in your %s/config.toml has no base_url (add the endpoint's URL)", id, person.Dir)
		}
		if k, _ := t["env_key"].(string); k != "" {
			pl.EnvKeys = append(pl.EnvKeys, k)
		}
		if h, ok := t["env_http_headers"].(map[string]any); ok {
			for _, v := range h {
				if k, ok := v.(string); ok && k != "" {
					pl.EnvKeys = append(pl.EnvKeys, k)
				}
			}
		}
		pl.Auth = t["requires_openai_auth"] == true && person.Auth != ""
	case env.FromEnv || person == nil || person.Auth == "":
		base := env.BaseURL
		if base == "" {
			base = person.str("openai_base_url")
		}
		p := Provider{BaseURL: base, EnvKey: env.EnvKey}
		pl.ProviderID, pl.BaseURL = ProviderID, p.baseURL()
		pl.Provider = map[string]any{"name": "Sentinel", "base_url": p.baseURL(), "env_key": p.envKey(), "wire_api": "responses"}
		pl.EnvKeys = []string{p.envKey()}
	default: // the built-in provider with the person's sign-in
		pl.ProviderID, pl.Auth = openaiID, true
		pl.BaseURL = DefaultBaseURL
		if u := person.str("openai_base_url"); u != "" {
			pl.BaseURL = u
			pl.Keep["openai_base_url"] = u
		}
		if person.Auth == "chatgpt" {
			pl.BaseURL = chatgptBaseURL
			if u := person.str("chatgpt_base_url"); u != "" {
				pl.BaseURL = u
				pl.Keep["chatgpt_base_url"] = u
			}
			pl.Hosts = []string{chatgptAuthHost}
		}
	}
	slices.Sort(pl.EnvKeys)
	pl.EnvKeys = slices.Compact(pl.EnvKeys)
	for _, k := range keepKeys {
		if v, ok := person.setting(k); ok {
			pl.Keep[k] = v
		}
	}
	tui := map[string]any{}
	for _, k := range keepTUIKeys {
		if v, ok := person.table("tui")[k]; ok {
			tui[k] = v
		}
	}
	if len(tui) > 0 {
		pl.Keep["tui"] = tui
	}
	if servers := person.table("mcp_servers"); len(servers) > 0 {
		pl.MCP = map[string]any{}
		for name, s := range servers {
			if t, ok := s.(map[string]any); ok {
				pl.MCP[name] = askEveryTool(t)
			}
		}
		// Each stdio server starts through the system shell, so in place
		// it enters a signal scope (agentutil.ScopeCommandServers).
		agentutil.ScopeCommandServers(pl.MCP)
	}
	var instr []string
	if s := person.str("developer_instructions"); strings.TrimSpace(s) != "" {
		instr = append(instr, s)
	}
	if strings.TrimSpace(whereAmI) != "" {
		instr = append(instr, whereAmI)
	}
	pl.Instructions = strings.Join(instr, "\n\n")
	return pl, nil
}

// askEveryTool is an MCP server's table with every tool set to ask
// (default_tools_approval_mode and each tools.<name>.approval_mode =
// "prompt"). Codex 0.171.0 otherwise runs a tool that calls itself
// read-only, or one the config marks "approve" or "auto", without asking
// anyone; with "prompt" each call comes to Sentinel as an
// mcpServer/elicitation/request (measured).
func askEveryTool(server map[string]any) map[string]any {
	t := maps.Clone(server)
	t["default_tools_approval_mode"] = "prompt"
	if tools, ok := t["tools"].(map[string]any); ok {
		out := map[string]any{}
		for name, v := range tools {
			tt, _ := v.(map[string]any)
			tt = maps.Clone(tt)
			if tt == nil {
				tt = map[string]any{}
			}
			tt["approval_mode"] = "prompt"
			out[name] = tt
		}
		t["tools"] = out
	}
	return t
}

// AllowHosts are the model's host and the sign-in's, for the proxy.
func (pl Plan) AllowHosts() []string {
	return append(allowHosts(pl.BaseURL), pl.Hosts...)
}

// Config is the run's config.toml as a TOML document's top-level table.
// Sentinel's values are set last, over anything kept.
func (pl Plan) Config() map[string]any {
	c := maps.Clone(pl.Keep)
	if c == nil {
		c = map[string]any{}
	}
	if pl.Model != "" {
		c["model"] = pl.Model
	}
	c["model_provider"] = pl.ProviderID
	if pl.Provider != nil {
		c["model_providers"] = map[string]any{pl.ProviderID: pl.Provider}
	}
	if len(pl.MCP) > 0 {
		c["mcp_servers"] = pl.MCP
	}
	if pl.Instructions != "" {
		c["developer_instructions"] = pl.Instructions
	}
	for k, v := range forcedSettings(pl.EnvKeys) {
		c[k] = v
	}
	if pl.InPlace != "" {
		inPlaceSettings(c, pl.InPlace)
	}
	return c
}

// forcedSettings are Sentinel's, whatever the person's file said:
//   - sandbox_mode and approvals_reviewer "user" (also sent on thread/start
//     and checked in its answer): "auto_review" would hand approvals to a
//     Codex subagent instead of Sentinel;
//   - shell_environment_policy keeps the provider's key variables out of
//     the coder's commands (Codex's default excludes only names with KEY,
//     SECRET or TOKEN in them; a person's policy may include everything);
//   - auth is read from the copied auth.json, never a keyring;
//   - no update checks, analytics, feedback, web search, subagents, and
//     none of DisabledFeatures.
//
// approval_policy is not here: 0.171.0 refuses "untrusted" in config.toml;
// it goes on thread/start, which outranks every config layer (tested).
func forcedSettings(envKeys []string) map[string]any {
	features := map[string]any{}
	for _, f := range DisabledFeatures {
		features[f] = false
	}
	exclude := append([]string{}, envKeys...)
	sort.Strings(exclude)
	return map[string]any{
		"sandbox_mode":                SandboxMode,
		"approvals_reviewer":          ApprovalsReviewer,
		"check_for_update_on_startup": false,
		"web_search":                  "disabled",
		"cli_auth_credentials_store":  "file",
		"shell_environment_policy": map[string]any{"inherit": "all", "ignore_default_excludes": false,
			"exclude": exclude},
		"features":  features,
		"agents":    map[string]any{"enabled": false},
		"analytics": map[string]any{"enabled": false},
		"feedback":  map[string]any{"enabled": false},
	}
}
