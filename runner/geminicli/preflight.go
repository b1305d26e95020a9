package geminicli

import (
	"errors"
	"github.com/sentinelhq/sentinel/runner/coder"
	"os"
	"path/filepath"
)

// DefaultBaseURL is the Gemini API, where an API key's model traffic goes
// when GOOGLE_GEMINI_BASE_URL is unset.
const DefaultBaseURL = "https://generativelanguage.googleapis.com"

// signInVars are the variables any of which gives Gemini CLI a key or
// another sign-in (Vertex AI, Code Assist, a service account).
var signInVars = []string{"GEMINI_API_KEY", "GOOGLE_API_KEY", "GOOGLE_GENAI_USE_VERTEXAI", "GOOGLE_GENAI_USE_GCA",
	"GOOGLE_CLOUD_PROJECT", "GOOGLE_APPLICATION_CREDENTIALS"}

// signInFiles, under home, hold a Google login or variables Gemini CLI
// loads (its .env files).
var signInFiles = []string{".gemini/oauth_creds.json", ".gemini/.env", ".env"}

// SignIn is nil when Gemini CLI (in place, or over ACP in a run) will find a key or a sign-in: a variable of
// signInVars, or a file of signInFiles in the person's home. A project's
// own .env is not looked at, so the error names that way too.
func SignIn() error {
	for _, v := range signInVars {
		if os.Getenv(v) != "" {
			return nil
		}
	}
	home, _ := os.UserHomeDir()
	for _, f := range signInFiles {
		if _, err := os.Stat(filepath.Join(home, f)); err == nil {
			return nil
		}
	}
	return errors.New("coder gemini: no API key and no sign-in (set GEMINI_API_KEY, or sign in once by running gemini)")
}

// ModelEndpoint is the base URL Gemini CLI sends its model traffic to and
// the fix when it does not answer: GOOGLE_GEMINI_BASE_URL, else the Gemini API for an API key;
// "" for a Google login or Vertex AI, whose endpoints it picks itself.
func ModelEndpoint() (url, fix string, err error) {
	if u := os.Getenv("GOOGLE_GEMINI_BASE_URL"); u != "" {
		return u, "start it, or point GOOGLE_GEMINI_BASE_URL at one that answers", nil
	}
	if os.Getenv("GOOGLE_GENAI_USE_VERTEXAI") == "" && (os.Getenv("GEMINI_API_KEY") != "" || os.Getenv("GOOGLE_API_KEY") != "") {
		return DefaultBaseURL, "check this machine's network, or set GOOGLE_GEMINI_BASE_URL to an endpoint that answers", nil
	}
	return "", "", nil
}

// SignIn is the package's SignIn, for the runner's preflight.
func (a *Adapter) SignIn() error { return SignIn() }

// ModelEndpoint is the package's ModelEndpoint, for the runner's preflight.
func (a *Adapter) ModelEndpoint() (url, fix string, err error) { return ModelEndpoint() }

// ModelProbe is how the preflight tells the Gemini API at the endpoint
// from a wrong one.
func (a *Adapter) ModelProbe() coder.Probe { return coder.GeminiProbe }
