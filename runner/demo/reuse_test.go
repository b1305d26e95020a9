package demo

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/sentinelhq/sentinel/approvals"
)

// templateBroker allows everything by one remembered template.
type templateBroker struct{ fakeBroker }

func (f *templateBroker) Ask(_ context.Context, r approvals.Request) (approvals.Decision, error) {
	return approvals.Decision{Outcome: approvals.OutcomeAllow, By: "template:t-1",
		Reason: "reused template “ls .. (exactly) in this project” (t-1)"}, nil
}

// TestCoderSaysWhichTemplateAllowedIt: a request a remembered template
// answers shows the template's name in the coder's pane, not only its id.
func TestCoderSaysWhichTemplateAllowedIt(t *testing.T) {
	sc, err := Parse([]byte("name = \"reuse\"\n[[steps]]\nshell = \"ls ..\"\n"), "reuse.toml")
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	c := &Coder{Scenario: sc, Dir: t.TempDir(), Broker: &templateBroker{}, In: strings.NewReader(""), Out: &out}
	c.Run(context.Background())
	if !strings.Contains(out.String(), "reused template “ls .. (exactly) in this project”") {
		t.Fatalf("the coder's output does not name the template:\n%s", out.String())
	}
}
