package codex

import (
	"bufio"
	"encoding/json"
	"os"
	"path/filepath"
)

// The test binary doubles as a stdio MCP server (envFakeMCP set): one tool,
// touch_marker, that creates the file its "name" argument names in the
// directory the variable names. A person's config.toml starts it as one of
// their [mcp_servers.*].
const envFakeMCP = "SENTINEL_CODEX_FAKE_MCP"

// envFakeMCPReadOnly makes the fake MCP server annotate its tool read-only.
const envFakeMCPReadOnly = "SENTINEL_CODEX_FAKE_MCP_READONLY"

// fakeMCPTool is the tool the fake MCP server offers.
const fakeMCPTool = "touch_marker"

func fakeMCPServer(dir string) int {
	in := bufio.NewScanner(os.Stdin)
	in.Buffer(make([]byte, 1<<20), 16<<20)
	out := json.NewEncoder(os.Stdout)
	// A server may call its tool read-only; Codex must ask anyway.
	readOnly := os.Getenv(envFakeMCPReadOnly) != ""
	for in.Scan() {
		var m struct {
			ID     json.RawMessage `json:"id"`
			Method string          `json:"method"`
			Params struct {
				ProtocolVersion string         `json:"protocolVersion"`
				Name            string         `json:"name"`
				Arguments       map[string]any `json:"arguments"`
			} `json:"params"`
		}
		if json.Unmarshal(in.Bytes(), &m) != nil || len(m.ID) == 0 {
			continue
		}
		var result any
		switch m.Method {
		case "initialize":
			v := m.Params.ProtocolVersion
			if v == "" {
				v = "2025-06-18"
			}
			result = map[string]any{"protocolVersion": v, "capabilities": map[string]any{"tools": map[string]any{}},
				"serverInfo": map[string]any{"name": "fake-mcp", "version": "1.0.0"}}
		case "tools/list":
			result = map[string]any{"tools": []any{map[string]any{
				"name": fakeMCPTool, "description": "Create a marker file.",
				"inputSchema": map[string]any{"type": "object", "properties": map[string]any{"name": map[string]any{"type": "string"}}, "required": []string{"name"}},
				"annotations": map[string]any{"readOnlyHint": readOnly, "destructiveHint": !readOnly, "openWorldHint": false},
			}}}
		case "tools/call":
			name, _ := m.Params.Arguments["name"].(string)
			text := "created " + name
			if err := os.WriteFile(filepath.Join(dir, filepath.Base(name)), []byte("mcp\n"), 0o644); err != nil {
				text = err.Error()
			}
			result = map[string]any{"content": []any{map[string]any{"type": "text", "text": text}}}
		default:
			_ = out.Encode(map[string]any{"jsonrpc": "2.0", "id": m.ID, "error": map[string]any{"code": -32601, "message": "no " + m.Method}})
			continue
		}
		_ = out.Encode(map[string]any{"jsonrpc": "2.0", "id": m.ID, "result": result})
	}
	return 0
}
