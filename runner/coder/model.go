package coder

// Model is a coder that talks to a model over the network: before
// anything of a run is made, the run checks it has a key or sign-in and
// that its model endpoint answers, so a run that cannot work fails in
// seconds, with one line, and leaves nothing.
type Model interface {
	// SignIn is nil when the coder will find a key or sign-in, else the
	// one-line error naming the fix.
	SignIn() error
	// ModelEndpoint is the base URL the coder sends its model traffic to
	// ("" when the preflight cannot know it) and the fix when it does not
	// answer ("start it, or point X at one that answers").
	ModelEndpoint() (url, fix string, err error)
}

// Hosting is an adapter that runs another agent's program (--coder acp --
// PROGRAM ARGS...). Hosted is that program's argv as it will start: the run
// finds the agent's entry by it (runner/agents) and reads what the entry
// says of it (HostedModel), so the hosting adapter knows no agent.
type Hosting interface {
	Hosted() []string
}

// Probe is how the preflight tells the coder's model API from anything else
// that answers at its endpoint (a gateway's or a network's 404 for every
// path, where the coder would start and fail later, or wait for a person):
// paths under the base URL, asked without credentials, the cheapest the
// provider answers (its models list, then the coder's own call with an
// empty body). The API answers at least one of them with a status other
// than 404 — without a key that is 401 or 403; nothing is billed.
type Probe struct {
	API  string   // the API's name for the error line, e.g. "Anthropic Messages API"
	List []string // asked with GET first, e.g. /v1/models
	Call []string // asked with POST {} when every List path answered 404, e.g. /v1/messages
}

// Probing is a Model whose API the preflight can tell (ModelProbe); a Model
// without it is checked for any answer only.
type Probing interface {
	ModelProbe() Probe
}

// AnthropicProbe is the Anthropic Messages API's probe, for a base URL with
// /v1 (the AI SDK's) or without (Claude Code's ANTHROPIC_BASE_URL).
var AnthropicProbe = Probe{API: "Anthropic Messages API", List: []string{"/v1/models", "/models"}, Call: []string{"/v1/messages", "/messages"}}

// OpenAIProbe is an OpenAI-style API's probe, for a base URL ending in /v1
// (OPENAI_BASE_URL's form): its models list, then the Responses and Chat
// Completions calls.
var OpenAIProbe = Probe{API: "OpenAI API", List: []string{"/models"}, Call: []string{"/responses", "/chat/completions"}}

// GeminiProbe is the Gemini API's probe (generativelanguage's base URL,
// without the version): the models list, then a token count (free, and
// the shape of Gemini CLI's own calls) for a gateway without the list.
var GeminiProbe = Probe{API: "Gemini API", List: []string{"/v1beta/models"}, Call: []string{"/v1beta/models/gemini-2.5-flash:countTokens"}}
