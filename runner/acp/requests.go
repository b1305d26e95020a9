package acp

import (
	"fmt"
	"net/url"
	"path/filepath"
	"strings"

	sdk "github.com/coder/acp-go-sdk"

	"github.com/sentinelhq/sentinel/approvals"
	"github.com/sentinelhq/sentinel/policy"
)

// requestsFor turns one permission request into the broker requests that
// must all be allowed for it to proceed. Every tool kind is asked about:
// one Sentinel cannot describe goes to the broker as "other" with its title,
// where the policy sends it to a person (or a deny).
func requestsFor(tc sdk.ToolCallUpdate, cwd string) []approvals.Request {
	base := approvals.Request{Adapter: "acp", ToolCallID: string(tc.ToolCallId), Cwd: cwd, Input: rawJSON(tc)}
	title := ""
	if tc.Title != nil {
		title = *tc.Title
	}
	kind := sdk.ToolKindOther
	if tc.Kind != nil {
		kind = *tc.Kind
	}
	paths := locationPaths(tc)
	var out []approvals.Request
	switch kind {
	case sdk.ToolKindExecute:
		r := base
		r.Kind, r.Command = policy.KindShell, commandOf(tc.RawInput, title)
		out = append(out, r)
	case sdk.ToolKindEdit, sdk.ToolKindDelete, sdk.ToolKindMove:
		for _, d := range diffs(tc) {
			r := base
			r.Kind, r.Path = policy.KindWrite, filepath.Clean(d.Path)
			if d.OldText != nil && *d.OldText != "" {
				r.Kind = policy.KindEdit
			}
			out = append(out, r)
			delete(paths, r.Path)
		}
		for p := range paths {
			r := base
			r.Kind, r.Path = policy.KindWrite, p
			out = append(out, r)
		}
	case sdk.ToolKindRead, sdk.ToolKindSearch:
		for p := range paths {
			r := base
			r.Kind, r.Path = policy.KindRead, p
			out = append(out, r)
		}
	case sdk.ToolKindFetch:
		r := base
		r.Kind, r.URL = policy.KindNet, urlOf(tc.RawInput, title)
		r.Host = hostOf(r.URL)
		out = append(out, r)
	}
	if len(out) == 0 {
		r := base
		r.Kind, r.Tool = policy.KindOther, fmt.Sprintf("%s: %s", kind, title)
		out = append(out, r)
	}
	return out
}

// commandOf is the shell command of an execute call: rawInput's command
// (a string or an argv) when the agent sends one, else the title (Gemini
// sends the command as the title and no rawInput).
func commandOf(raw any, title string) string {
	if m, ok := raw.(map[string]any); ok {
		switch c := m["command"].(type) {
		case string:
			if c != "" {
				return c
			}
		case []any:
			var argv []string
			for _, a := range c {
				argv = append(argv, fmt.Sprint(a))
			}
			if len(argv) > 0 {
				return strings.Join(argv, " ")
			}
		}
	}
	return title
}

func urlOf(raw any, title string) string {
	if m, ok := raw.(map[string]any); ok {
		if u, ok := m["url"].(string); ok && u != "" {
			return u
		}
	}
	for _, f := range strings.Fields(title) {
		if strings.HasPrefix(f, "http://") || strings.HasPrefix(f, "https://") {
			return f
		}
	}
	return title
}

// hostOf is the URL's host ("" when it does not parse: nothing matches
// it, so the request fails closed).
func hostOf(u string) string {
	if !strings.Contains(u, "://") {
		u = "https://" + u
	}
	p, err := url.Parse(u)
	if err != nil {
		return ""
	}
	return p.Hostname()
}

func diffs(tc sdk.ToolCallUpdate) []*sdk.ToolCallContentDiff {
	var out []*sdk.ToolCallContentDiff
	for _, c := range tc.Content {
		if c.Diff != nil && c.Diff.Path != "" {
			out = append(out, c.Diff)
		}
	}
	return out
}

func locationPaths(tc sdk.ToolCallUpdate) map[string]bool {
	out := map[string]bool{}
	for _, l := range tc.Locations {
		if l.Path != "" {
			out[filepath.Clean(l.Path)] = true
		}
	}
	return out
}

// choose picks the agent's option for a decision: allow_once for an allow
// (see the package doc on allow_always), reject_once for a deny. With no
// such option an allow falls back to nothing (the call is cancelled: never
// a broader allow than the broker gave) and a deny to reject_always or a
// cancel.
func choose(opts []sdk.PermissionOption, allowed bool) sdk.RequestPermissionResponse {
	want := []sdk.PermissionOptionKind{sdk.PermissionOptionKindRejectOnce, sdk.PermissionOptionKindRejectAlways}
	if allowed {
		want = []sdk.PermissionOptionKind{sdk.PermissionOptionKindAllowOnce}
	}
	for _, k := range want {
		for _, o := range opts {
			if o.Kind == k {
				return sdk.RequestPermissionResponse{Outcome: sdk.RequestPermissionOutcome{
					Selected: &sdk.RequestPermissionOutcomeSelected{OptionId: o.OptionId}}}
			}
		}
	}
	return sdk.RequestPermissionResponse{Outcome: sdk.RequestPermissionOutcome{Cancelled: &sdk.RequestPermissionOutcomeCancelled{}}}
}
