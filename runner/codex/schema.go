package codex

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
)

// SchemaArgv is the command that writes the app-server's JSON schema into
// dir: a run starts it in the sandbox, then reads dir with CheckSchema.
func (a *Adapter) SchemaArgv(dir string) ([]string, error) {
	bin, err := a.Binary()
	if err != nil {
		return nil, err
	}
	return []string{bin, "app-server", "generate-json-schema", "--out", dir}, nil
}

// GenerateSchema writes the installed app-server's JSON schema into dir
// (`codex app-server generate-json-schema --out dir`).
func GenerateSchema(ctx context.Context, bin, dir string) error {
	out, err := exec.CommandContext(ctx, bin, "app-server", "generate-json-schema", "--out", dir).CombinedOutput()
	if err != nil {
		return fmt.Errorf("coder codex: %s app-server generate-json-schema failed: %v: %s (Sentinel needs a codex with app-server; update it with: npm install -g @openai/codex@latest)",
			bin, err, strings.TrimSpace(string(out)))
	}
	return nil
}

// schemaNeeds is every part of the app-server protocol the Session relies on.
var schemaNeeds = struct {
	clientMethods, serverRequests, notifications []string
	fields                                       map[string][]string // file → top-level properties
	defFields                                    map[string]map[string][]string
	decisions                                    map[string][]string // response file → decision values
	enums                                        map[string]map[string][]string
}{
	clientMethods:  []string{"initialize", "thread/start", "turn/start", "turn/steer", "turn/interrupt"},
	serverRequests: []string{MethodCommandApproval, MethodFileChangeApproval},
	notifications:  []string{"turn/started", "turn/completed", "item/started", "item/completed"},
	fields: map[string][]string{
		"CommandExecutionRequestApprovalParams.json": {"itemId", "turnId", "command", "cwd"},
		"FileChangeRequestApprovalParams.json":       {"itemId", "turnId"},
		"v2/ThreadStartParams.json":                  {"cwd", "approvalPolicy", "sandbox", "model"},
		"v2/ThreadStartResponse.json":                {"thread", "approvalPolicy"},
		"v2/TurnStartParams.json":                    {"threadId", "input"},
		"v2/TurnSteerParams.json":                    {"threadId", "expectedTurnId", "input"},
		"v2/TurnInterruptParams.json":                {"threadId", "turnId"},
		"v2/ItemStartedNotification.json":            {"item", "turnId"},
		"v2/TurnCompletedNotification.json":          {"turn"},
	},
	defFields: map[string]map[string][]string{
		"v2/ItemStartedNotification.json": {"FileUpdateChange": {"path", "kind", "diff"}},
	},
	decisions: map[string][]string{
		"CommandExecutionRequestApprovalResponse.json": {"accept", "acceptForSession", "decline"},
		"FileChangeRequestApprovalResponse.json":       {"accept", "acceptForSession", "decline"},
	},
	enums: map[string]map[string][]string{
		"v2/ThreadStartParams.json": {"AskForApproval": {ApprovalPolicy}, "SandboxMode": {SandboxMode}},
	},
}

// CheckSchema verifies that the schema in dir (from GenerateSchema) has
// every method, field and answer Sentinel uses, and names each one missing.
func CheckSchema(dir string) error {
	var missing []string
	need := schemaNeeds
	check := func(file string, want []string, have map[string]bool, what string) {
		for _, w := range want {
			if !have[w] {
				missing = append(missing, fmt.Sprintf("%s %q (%s)", what, w, file))
			}
		}
	}
	methods := func(file string) map[string]bool {
		doc, err := loadSchema(dir, file)
		if err != nil {
			missing = append(missing, err.Error())
			return nil
		}
		have := map[string]bool{}
		for _, v := range list(doc["oneOf"]) {
			for _, m := range list(dig(v, "properties", "method", "enum")) {
				if s, ok := m.(string); ok {
					have[s] = true
				}
			}
		}
		return have
	}
	check("ClientRequest.json", need.clientMethods, methods("ClientRequest.json"), "client method")
	check("ServerRequest.json", need.serverRequests, methods("ServerRequest.json"), "server request")
	check("ServerNotification.json", need.notifications, methods("ServerNotification.json"), "notification")
	for _, file := range sortedKeys(need.fields) {
		doc, err := loadSchema(dir, file)
		if err != nil {
			missing = append(missing, err.Error())
			continue
		}
		check(file, need.fields[file], keys(dig(doc, "properties")), "field")
	}
	for _, file := range sortedKeys(need.defFields) {
		doc, err := loadSchema(dir, file)
		if err != nil {
			missing = append(missing, err.Error())
			continue
		}
		for def, fields := range need.defFields[file] {
			check(file, fields, keys(dig(doc, "definitions", def, "properties")), def+" field")
		}
	}
	for _, file := range sortedKeys(need.decisions) {
		doc, err := loadSchema(dir, file)
		if err != nil {
			missing = append(missing, err.Error())
			continue
		}
		ref, _ := dig(doc, "properties", "decision", "$ref").(string)
		def := dig(doc, "definitions", strings.TrimPrefix(ref, "#/definitions/"))
		check(file, need.decisions[file], enumValues(def), "decision")
	}
	for _, file := range sortedKeys(need.enums) {
		doc, err := loadSchema(dir, file)
		if err != nil {
			missing = append(missing, err.Error())
			continue
		}
		for def, vals := range need.enums[file] {
			check(file, vals, enumValues(dig(doc, "definitions", def)), def+" value")
		}
	}
	if len(missing) > 0 {
		return fmt.Errorf("its app-server protocol lacks what Sentinel needs: %s (install a supported version: npm install -g @openai/codex@0.171.0)", strings.Join(missing, "; "))
	}
	return nil
}

func loadSchema(dir, file string) (map[string]any, error) {
	b, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(file)))
	if err != nil {
		return nil, fmt.Errorf("schema file %s missing", file)
	}
	var doc map[string]any
	if err := json.Unmarshal(b, &doc); err != nil {
		return nil, fmt.Errorf("schema file %s unreadable: %v", file, err)
	}
	return doc, nil
}

func dig(v any, keys ...string) any {
	for _, k := range keys {
		m, ok := v.(map[string]any)
		if !ok {
			return nil
		}
		v = m[k]
	}
	return v
}

func list(v any) []any { l, _ := v.([]any); return l }

func keys(v any) map[string]bool {
	out := map[string]bool{}
	if m, ok := v.(map[string]any); ok {
		for k := range m {
			out[k] = true
		}
	}
	return out
}

// enumValues collects the string values of an enum definition, directly or
// across its oneOf/anyOf branches.
func enumValues(def any) map[string]bool {
	out := map[string]bool{}
	var walk func(v any)
	walk = func(v any) {
		for _, e := range list(dig(v, "enum")) {
			if s, ok := e.(string); ok {
				out[s] = true
			}
		}
		for _, k := range []string{"oneOf", "anyOf"} {
			for _, b := range list(dig(v, k)) {
				walk(b)
			}
		}
	}
	walk(def)
	return out
}

func sortedKeys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
