package claude

import (
	"bufio"
	"encoding/json"
	"os"
	"strings"
	"testing"

	"github.com/sentinelhq/sentinel/internal/journal"
)

// testdata/headless-2.1.332.jsonl is the real output of claude 2.1.332
// (-p --output-format stream-json --verbose) for a scripted run whose Bash
// call a hook denied.
func TestDecodeRealStream(t *testing.T) {
	f, err := os.Open("testdata/headless-2.1.332.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var got []string
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 16<<20)
	for sc.Scan() {
		for _, l := range DecodeLine(sc.Bytes()) {
			if len(l.Data) == 0 {
				t.Errorf("%s/%s line lost its raw data", l.Lane, l.Kind)
			}
			got = append(got, string(l.Lane)+"/"+string(l.Kind)+": "+l.Text)
		}
	}
	want := []string{
		"system/init: claude session started (model claude-opus-5-5)",
		"coder/text: I will list.",
		"tool/stream-tool-call: Bash touch /tmp/fm_marker_ok && ls /",
		"tool/stream-tool-result: error: PreToolUse:Bash hook error: HOOKDENY-xyz",
		"coder/text: Done listing.",
		"system/result: claude finished (success, 2 turns, 1 tool calls denied), its last message: \"Done listing.\"",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("decoded:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

func TestDecodeLine(t *testing.T) {
	tests := []struct {
		name, line string
		want       []string // lane/kind: text
	}{
		{"blank", "  \n", nil},
		{"not json", "Warning: something\n", []string{"coder/unknown: Warning: something"}},
		{"error result", `{"type":"result","subtype":"error_during_execution","is_error":true,"result":"API Error: 500"}`,
			[]string{"system/result: claude failed: \"API Error: 500\""}},
		{"string content", `{"type":"assistant","message":{"content":"hello"}}`, []string{"coder/text: hello"}},
		{"steering echo", `{"type":"user","message":{"role":"user","content":[{"type":"text","text":"stop"}]}}`,
			[]string{"coder/user-text: stop"}},
		{"tool result text blocks", `{"type":"user","message":{"content":[{"type":"tool_result","content":[{"type":"text","text":"a"},{"type":"text","text":"b"}]}]}}`,
			[]string{"tool/stream-tool-result: a\nb"}},
		{"write call", `{"type":"assistant","message":{"content":[{"type":"tool_use","name":"Write","input":{"file_path":"/w/x.go","content":"package x"}}]}}`,
			[]string{"tool/stream-tool-call: Write /w/x.go"}},
		{"permission denied", `{"type":"system","subtype":"permission_denied","tool_name":"Bash","message":"needs approval"}`,
			[]string{"tool/permission-denied: Bash denied: needs approval"}},
		{"other system", `{"type":"system","subtype":"compact_boundary"}`, []string{"system/system: claude: compact_boundary"}},
		{"unknown type", `{"type":"stream_event"}`, []string{"system/unknown: claude: stream_event"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var got []string
			for _, l := range DecodeLine([]byte(tc.line)) {
				got = append(got, string(l.Lane)+"/"+string(l.Kind)+": "+l.Text)
			}
			if strings.Join(got, "|") != strings.Join(tc.want, "|") {
				t.Errorf("got %q, want %q", got, tc.want)
			}
		})
	}
}

func TestDecodeClipsLongText(t *testing.T) {
	long := strings.Repeat("é", maxText)
	ls := DecodeLine([]byte(`{"type":"assistant","message":{"content":"` + long + `"}}`))
	if len(ls) != 1 || len(ls[0].Text) > maxText+len("…") || !strings.HasSuffix(ls[0].Text, "…") || !strings.HasPrefix(ls[0].Text, "éé") {
		t.Fatalf("clipped text has %d bytes", len(ls[0].Text))
	}
	if ls[0].Lane != journal.Coder {
		t.Errorf("lane = %s", ls[0].Lane)
	}
}

func TestDecoderReassemblesChunks(t *testing.T) {
	raw, err := os.ReadFile("testdata/headless-2.1.332.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	// A pty turns \n into \r\n; chunks split lines anywhere.
	crlf := []byte(strings.ReplaceAll(string(raw), "\n", "\r\n"))
	for _, size := range []int{1, 7, 4096, len(crlf)} {
		var d Decoder
		var kinds []string
		for i := 0; i < len(crlf); i += size {
			end := min(i+size, len(crlf))
			for _, l := range d.Write(crlf[i:end]) {
				kinds = append(kinds, string(l.Kind))
			}
		}
		for _, l := range d.Flush() {
			kinds = append(kinds, string(l.Kind))
		}
		if got := strings.Join(kinds, " "); got != "init text stream-tool-call stream-tool-result text result" {
			t.Errorf("chunks of %d: kinds %q", size, got)
		}
	}
	var d Decoder
	if ls := d.Write([]byte(`{"type":"assistant","message":{"content":"no newline yet"}}`)); len(ls) != 0 {
		t.Errorf("a line without its newline was decoded early: %+v", ls)
	}
	if ls := d.Flush(); len(ls) != 1 || ls[0].Text != "no newline yet" {
		t.Errorf("Flush = %+v", ls)
	}
}

func TestDecodeLineCarriesFailuresAsData(t *testing.T) {
	ls := DecodeLine([]byte(`{"type":"user","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"toolu_9","is_error":true,"content":"Exit code 2"}]}}`))
	if len(ls) != 1 || ls[0].Kind != "stream-tool-result" {
		t.Fatalf("lines = %+v", ls)
	}
	var d struct {
		Failed     bool            `json:"failed"`
		ToolCallID string          `json:"tool_call_id"`
		Agent      json.RawMessage `json:"agent"`
	}
	if err := json.Unmarshal(ls[0].Data, &d); err != nil || !d.Failed || d.ToolCallID != "toolu_9" || !strings.Contains(string(d.Agent), `"tool_result"`) {
		t.Errorf("tool-result data = %s (%v)", ls[0].Data, err)
	}
	ls = DecodeLine([]byte(`{"type":"result","subtype":"success","is_error":true,"num_turns":1,"result":"API Error: 400 bad model"}`))
	if len(ls) != 1 || ls[0].Err != "API Error: 400 bad model" {
		t.Errorf("an error result: %+v", ls)
	}
	ls = DecodeLine([]byte(`{"type":"result","subtype":"error_during_execution","is_error":true,"num_turns":0,"errors":["no credentials"]}`))
	if len(ls) != 1 || ls[0].Err != "no credentials" {
		t.Errorf("an error result with only errors: %+v", ls)
	}
	ls = DecodeLine([]byte(`{"type":"result","subtype":"success","is_error":false,"num_turns":1,"result":"nothing to change"}`))
	if len(ls) != 1 || ls[0].Err != "" {
		t.Errorf("a result that went well has an error: %+v", ls)
	}
}
