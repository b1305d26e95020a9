package supervisor

import (
	"strings"
	"testing"
)

// An answer that parses but lacks a field its schema requires, or that
// carries garbage, is a "no" for every gate: the parser errs, and the
// caller treats the error as a deny / not done / no probes / no relay.
func TestAnswersLackingRequiredFieldsAreErrors(t *testing.T) {
	cases := []struct {
		name  string
		parse func(string) error
		text  string
		want  string
	}{
		{"judge without risk", func(s string) error { _, err := ParseVerdict(s); return err },
			`{"decision":"allow","reason":"fine"}`, "risk"},
		{"judge with null reason", func(s string) error { _, err := ParseVerdict(s); return err },
			`{"decision":"allow","reason":null,"risk":"low"}`, "reason"},
		{"review without missing", func(s string) error { _, err := ParseReview(s); return err },
			`{"verdict":"accept","reason":"looks done"}`, `"missing"`},
		{"review with nothing", func(s string) error { _, err := ParseReview(s); return err },
			`{}`, "verdict"},
		// Not JSON at all, or nothing, from either gate of a run (the end-to-end
		// TestModelGatesThatCannotAnswerHoldTheRun runs one of each per gate).
		{"review that is prose", func(s string) error { _, err := ParseReview(s); return err },
			"Looks fine to me!", "not a JSON object"},
		{"review that is empty", func(s string) error { _, err := ParseReview(s); return err },
			"", "empty"},
		{"adversary that is prose", func(s string) error { _, err := ParseProbes(s); return err },
			"LGTM, ship it", "not a JSON object"},
		{"adversary that is empty", func(s string) error { _, err := ParseProbes(s); return err },
			" \n", "empty"},
		{"adversary without probes", func(s string) error { _, err := ParseProbes(s); return err },
			`{"tests":[{"command":"true","expect":"x"}]}`, `"probes"`},
		{"adversary probe without expect", func(s string) error { _, err := ParseProbes(s); return err },
			`{"probes":[{"command":"true"}]}`, "expects"},
		{"adversary with no probe", func(s string) error { _, err := ParseProbes(s); return err },
			`{"probes":[]}`, "no probe"},
		{"relay without reason", func(s string) error { _, err := ParseRelay(s); return err },
			`{"to_coder":"stop","to_person":"","standing_decision":""}`, "reason"},
		{"relay with an escape sequence for the coder", func(s string) error { _, err := ParseRelay(s); return err },
			`{"to_coder":"fine\u001b[2J\u0003rm -rf ~","to_person":"","standing_decision":"","reason":"x"}`, "control"},
		{"relay with a NUL in the standing rule", func(s string) error { _, err := ParseRelay(s); return err },
			`{"to_coder":"ok","to_person":"","standing_decision":"a\u0000b","reason":"x"}`, "control"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			err := c.parse(c.text)
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("parse %s: %v, want an error naming %q", c.text, err, c.want)
			}
		})
	}
	// And the complete answers still parse.
	if _, err := ParseReview(`{"verdict":"accept","reason":"done","missing":[]}`); err != nil {
		t.Fatal(err)
	}
	if r, err := ParseRelay(`{"to_coder":"please\nstop","to_person":"ok\nthen","standing_decision":"","reason":"x"}`); err != nil || r.ToCoder != "please stop" {
		t.Fatalf("relay: %+v %v", r, err)
	}
}
