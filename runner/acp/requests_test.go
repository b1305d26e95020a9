package acp

import (
	"encoding/json"
	"sort"
	"strings"
	"testing"

	sdk "github.com/coder/acp-go-sdk"

	"github.com/sentinelhq/sentinel/approvals"
	"github.com/sentinelhq/sentinel/policy"
)

// want is the part of a broker request a test checks.
type want struct {
	Kind    policy.Kind
	Command string
	Path    string
	URL     string
	Host    string
	Tool    string
}

func TestRequestsFor(t *testing.T) {
	t.Parallel()
	const ws = "/ws"
	kind := func(k sdk.ToolKind) *sdk.ToolKind { return &k }
	title := func(s string) *string { return &s }
	loc := func(paths ...string) []sdk.ToolCallLocation {
		var out []sdk.ToolCallLocation
		for _, p := range paths {
			out = append(out, sdk.ToolCallLocation{Path: p})
		}
		return out
	}
	tests := []struct {
		name string
		tc   sdk.ToolCallUpdate
		want []want
	}{
		{"execute with a command string",
			sdk.ToolCallUpdate{Kind: kind(sdk.ToolKindExecute), Title: title("Run tests"),
				RawInput: map[string]any{"command": "go test ./..."}},
			[]want{{Kind: policy.KindShell, Command: "go test ./..."}}},
		{"execute with an argv",
			sdk.ToolCallUpdate{Kind: kind(sdk.ToolKindExecute), Title: title("List"),
				RawInput: map[string]any{"command": []any{"ls", "-la", "src"}}},
			[]want{{Kind: policy.KindShell, Command: "ls -la src"}}},
		{"execute with the title only (gemini)",
			sdk.ToolCallUpdate{Kind: kind(sdk.ToolKindExecute), Title: title("rm -rf build")},
			[]want{{Kind: policy.KindShell, Command: "rm -rf build"}}},
		{"execute with an empty command falls back to the title",
			sdk.ToolCallUpdate{Kind: kind(sdk.ToolKindExecute), Title: title("make"),
				RawInput: map[string]any{"command": ""}},
			[]want{{Kind: policy.KindShell, Command: "make"}}},
		{"edit with old text is an edit",
			sdk.ToolCallUpdate{Kind: kind(sdk.ToolKindEdit), Title: title("Edit a.go"),
				Content: []sdk.ToolCallContent{sdk.ToolDiffContent("/ws/a.go", "new", "old")}},
			[]want{{Kind: policy.KindEdit, Path: "/ws/a.go"}}},
		{"edit without old text is a write",
			sdk.ToolCallUpdate{Kind: kind(sdk.ToolKindEdit), Title: title("Write b.go"),
				Content: []sdk.ToolCallContent{sdk.ToolDiffContent("/ws/b.go", "new")}},
			[]want{{Kind: policy.KindWrite, Path: "/ws/b.go"}}},
		{"edit with empty old text is a write",
			sdk.ToolCallUpdate{Kind: kind(sdk.ToolKindEdit), Title: title("Write c.go"),
				Content: []sdk.ToolCallContent{sdk.ToolDiffContent("/ws/c.go", "new", "")}},
			[]want{{Kind: policy.KindWrite, Path: "/ws/c.go"}}},
		{"edit with a diff and the same location asks once",
			sdk.ToolCallUpdate{Kind: kind(sdk.ToolKindEdit), Title: title("Edit a.go"),
				Content:   []sdk.ToolCallContent{sdk.ToolDiffContent("/ws/a.go", "new", "old")},
				Locations: loc("/ws/a.go")},
			[]want{{Kind: policy.KindEdit, Path: "/ws/a.go"}}},
		{"edit with locations only writes each",
			sdk.ToolCallUpdate{Kind: kind(sdk.ToolKindEdit), Title: title("Edit two"),
				Locations: loc("/ws/x.txt", "/ws/sub/../y.txt")},
			[]want{{Kind: policy.KindWrite, Path: "/ws/x.txt"}, {Kind: policy.KindWrite, Path: "/ws/y.txt"}}},
		{"delete with a location is a write",
			sdk.ToolCallUpdate{Kind: kind(sdk.ToolKindDelete), Title: title("Delete x"), Locations: loc("/ws/x.txt")},
			[]want{{Kind: policy.KindWrite, Path: "/ws/x.txt"}}},
		{"read with a location",
			sdk.ToolCallUpdate{Kind: kind(sdk.ToolKindRead), Title: title("Read a"), Locations: loc("/ws/a.go")},
			[]want{{Kind: policy.KindRead, Path: "/ws/a.go"}}},
		{"search with locations reads each",
			sdk.ToolCallUpdate{Kind: kind(sdk.ToolKindSearch), Title: title("grep"), Locations: loc("/ws/a", "/ws/b")},
			[]want{{Kind: policy.KindRead, Path: "/ws/a"}, {Kind: policy.KindRead, Path: "/ws/b"}}},
		{"fetch with a url in rawInput",
			sdk.ToolCallUpdate{Kind: kind(sdk.ToolKindFetch), Title: title("Fetch docs"),
				RawInput: map[string]any{"url": "https://user@docs.example.com:8443/a?b=c"}},
			[]want{{Kind: policy.KindNet, URL: "https://user@docs.example.com:8443/a?b=c", Host: "docs.example.com"}}},
		{"fetch with the url in the title",
			sdk.ToolCallUpdate{Kind: kind(sdk.ToolKindFetch), Title: title("Fetching https://go.dev/doc now")},
			[]want{{Kind: policy.KindNet, URL: "https://go.dev/doc", Host: "go.dev"}}},
		{"fetch of an IPv6 literal",
			sdk.ToolCallUpdate{Kind: kind(sdk.ToolKindFetch), Title: title("Fetch"), RawInput: map[string]any{"url": "http://[::1]:8080/x"}},
			[]want{{Kind: policy.KindNet, URL: "http://[::1]:8080/x", Host: "::1"}}},
		{"a diff path and its location, spelled differently, ask once",
			sdk.ToolCallUpdate{Kind: kind(sdk.ToolKindEdit), Title: title("edit"), Locations: loc("/ws/a"),
				Content: []sdk.ToolCallContent{sdk.ToolDiffContent("/ws/./a", "new")}},
			[]want{{Kind: policy.KindWrite, Path: "/ws/a"}}},
		{"unknown kind is other with the title",
			sdk.ToolCallUpdate{Kind: kind(sdk.ToolKindThink), Title: title("ponder")},
			[]want{{Kind: policy.KindOther, Tool: "think: ponder"}}},
		{"no kind is other",
			sdk.ToolCallUpdate{Title: title("mystery tool")},
			[]want{{Kind: policy.KindOther, Tool: "other: mystery tool"}}},
		{"edit with nothing to name is other, never skipped",
			sdk.ToolCallUpdate{Kind: kind(sdk.ToolKindEdit), Title: title("Edit something")},
			[]want{{Kind: policy.KindOther, Tool: "edit: Edit something"}}},
		{"read without a location is other",
			sdk.ToolCallUpdate{Kind: kind(sdk.ToolKindRead), Title: title("Read it")},
			[]want{{Kind: policy.KindOther, Tool: "read: Read it"}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tt.tc.ToolCallId = "call-7"
			got := requestsFor(tt.tc, ws)
			for _, r := range got {
				if r.Adapter != "acp" || r.ToolCallID != "call-7" || r.Cwd != ws {
					t.Errorf("request %+v: want Adapter acp, ToolCallID call-7, Cwd %s", r, ws)
				}
				if len(r.Input) == 0 {
					t.Errorf("request %+v has no Input for display", r)
				}
			}
			if g := summarize(got); !equalWants(g, tt.want) {
				t.Errorf("requestsFor = %+v, want %+v", g, tt.want)
			}
		})
	}
}

func summarize(rs []approvals.Request) []want {
	var out []want
	for _, r := range rs {
		out = append(out, want{Kind: r.Kind, Command: r.Command, Path: r.Path, URL: r.URL, Host: r.Host, Tool: r.Tool})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Path < out[j].Path })
	return out
}

func equalWants(a, b []want) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func TestChoose(t *testing.T) {
	t.Parallel()
	opt := func(id string, k sdk.PermissionOptionKind) sdk.PermissionOption {
		return sdk.PermissionOption{OptionId: sdk.PermissionOptionId(id), Kind: k, Name: id}
	}
	all := []sdk.PermissionOption{
		opt("always", sdk.PermissionOptionKindAllowAlways),
		opt("once", sdk.PermissionOptionKindAllowOnce),
		opt("never", sdk.PermissionOptionKindRejectAlways),
		opt("no", sdk.PermissionOptionKindRejectOnce),
	}
	tests := []struct {
		name    string
		opts    []sdk.PermissionOption
		allowed bool
		want    string // the option id, or "" for a cancelled outcome
	}{
		{"allow picks allow_once over allow_always", all, true, "once"},
		{"allow with only allow_always is cancelled",
			[]sdk.PermissionOption{opt("always", sdk.PermissionOptionKindAllowAlways), opt("no", sdk.PermissionOptionKindRejectOnce)}, true, ""},
		{"allow with no options is cancelled", nil, true, ""},
		{"deny picks reject_once", all, false, "no"},
		{"deny falls back to reject_always",
			[]sdk.PermissionOption{opt("once", sdk.PermissionOptionKindAllowOnce), opt("never", sdk.PermissionOptionKindRejectAlways)}, false, "never"},
		{"deny with no reject option is cancelled, never an allow",
			[]sdk.PermissionOption{opt("once", sdk.PermissionOptionKindAllowOnce), opt("always", sdk.PermissionOptionKindAllowAlways)}, false, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := choose(tt.opts, tt.allowed)
			wire, err := json.Marshal(got)
			if err != nil {
				t.Fatal(err)
			}
			wantWire := `"outcome":"cancelled"`
			if tt.want != "" {
				wantWire = `"optionId":"` + tt.want + `","outcome":"selected"`
			}
			if !strings.Contains(string(wire), wantWire) {
				t.Errorf("the agent gets %s, want it to hold %s", wire, wantWire)
			}
			switch {
			case tt.want == "":
				if got.Outcome.Cancelled == nil || got.Outcome.Selected != nil {
					t.Errorf("choose = %+v, want a cancelled outcome", got.Outcome)
				}
			case got.Outcome.Selected == nil:
				t.Errorf("choose = %+v, want option %q", got.Outcome, tt.want)
			case string(got.Outcome.Selected.OptionId) != tt.want:
				t.Errorf("choose picked %q, want %q", got.Outcome.Selected.OptionId, tt.want)
			}
		})
	}
}
