package hooks

import (
	"encoding/json"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/sentinelhq/sentinel/internal/flatjson"
)

// oracleOutcome is a tool response read by encoding/json into the fields
// readOutcome reads.
func oracleOutcome(response string) outcome {
	var resp struct {
		ExitCode  *int  `json:"exit_code"`
		ExitCode2 *int  `json:"exitCode"`
		Code      *int  `json:"returncode"`
		Interrupt bool  `json:"interrupted"`
		IsError   bool  `json:"is_error"`
		IsError2  bool  `json:"isError"`
		Success   *bool `json:"success"`
	}
	_ = json.Unmarshal([]byte(response), &resp)
	o := outcome{interrupted: resp.Interrupt, failed: resp.IsError || resp.IsError2 || (resp.Success != nil && !*resp.Success)}
	for _, c := range []*int{resp.ExitCode, resp.ExitCode2, resp.Code} {
		if c != nil {
			o.exitCode = c
			break
		}
	}
	return o
}

// readOutcome reads a tool response as encoding/json reads it into the
// fields it names: random responses, each name at most once.
func TestReadOutcomeReadsWhatEncodingJSONReads(t *testing.T) {
	names := []string{"exit_code", "exitCode", "returncode", "interrupted", "is_error", "isError", "success", "stdout"}
	values := []string{`0`, `2`, `-1`, `1.5`, `1e2`, `"0"`, `null`, `true`, `false`, `"x"`, `{}`, `[1]`, `9223372036854775808`}
	responses := []string{`"a string"`, `[{"exit_code":1}]`, `null`, `3`, `{}`}
	r := rand.New(rand.NewPCG(3, 4))
	for range 5000 {
		var members []string
		for _, i := range r.Perm(len(names))[:r.IntN(len(names)+1)] {
			members = append(members, `"`+names[i]+`":`+values[r.IntN(len(values))])
		}
		responses = append(responses, "{"+strings.Join(members, ",")+"}")
	}
	for _, resp := range responses {
		o, err := flatjson.Parse([]byte(`{"tool_response":` + resp + `}`))
		if err != nil {
			t.Fatal(err)
		}
		got, want := readOutcome(member{of: o, name: "tool_response"}), oracleOutcome(resp)
		if got.interrupted != want.interrupted || got.failed != want.failed ||
			(got.exitCode == nil) != (want.exitCode == nil) || (got.exitCode != nil && *got.exitCode != *want.exitCode) {
			t.Fatalf("readOutcome(%s) = %+v (exit %v), encoding/json %+v (exit %v)", resp, got, deref(got.exitCode), want, deref(want.exitCode))
		}
	}
}

func deref(p *int) any {
	if p == nil {
		return nil
	}
	return *p
}

// A response longer than a report keeps is cut to its head, as a JSON
// string; a shorter one is kept as it was sent.
func TestToolReportKeepsTheResponsesHead(t *testing.T) {
	long := `{"stdout":"` + strings.Repeat("é", 40<<10) + `","exit_code":0}`
	for _, tc := range []struct{ resp, want string }{
		{`{"stdout":"ok","exit_code":0}`, `{"stdout":"ok","exit_code":0}`},
		{long, func() string {
			b, _ := json.Marshal(map[string]any{"truncated": true, "head": long[:64<<10]})
			return string(b)
		}()},
	} {
		ev, err := Read("claude", []byte(`{"hook_event_name":"PostToolUse","tool_name":"Bash","tool_input":{"command":"make"},"tool_response":`+tc.resp+`}`))
		if err != nil || ev.Report == nil || string(ev.Report.Data) != tc.want {
			t.Fatalf("Read(a %d-byte response): %v; data %.80s…, want %.80s…", len(tc.resp), err, ev.Report.Data, tc.want)
		}
	}
}
