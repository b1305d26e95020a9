package supervisor

import (
	"context"
	"errors"
	"fmt"
	"strings"
)

// MaxProbes bounds how many probes one adversary turn may ask Sentinel to run.
const MaxProbes = 8

// Probe is one check the adversarial tester wants run against the result.
type Probe struct {
	Command string `json:"command"` // a shell command that exits 0 when the result holds
	Expect  string `json:"expect"`  // what it shows, for the findings
}

// AdversaryInput is what the tester may know: the task and what changed,
// never how the code was written.
type AdversaryInput struct {
	Diffstat string // files changed
}

var adversarySchema = map[string]any{
	"type": "object",
	"properties": map[string]any{
		"probes": map[string]any{"type": "array", "items": map[string]any{
			"type": "object",
			"properties": map[string]any{
				"command": map[string]any{"type": "string"},
				"expect":  map[string]any{"type": "string"},
			},
			"required":             []string{"command", "expect"},
			"additionalProperties": false,
		}},
	},
	"required":             []string{"probes"},
	"additionalProperties": false,
}

// ParseProbes reads an adversary's answer strictly.
func ParseProbes(text string) ([]Probe, error) {
	var r struct {
		Probes []Probe `json:"probes"`
	}
	if err := decodeObject(text, &r, "probes"); err != nil {
		return nil, err
	}
	if len(r.Probes) == 0 {
		return nil, errors.New("the adversary proposed no probe")
	}
	if len(r.Probes) > MaxProbes {
		r.Probes = r.Probes[:MaxProbes]
	}
	for i, p := range r.Probes {
		if strings.TrimSpace(p.Command) == "" {
			return nil, fmt.Errorf("probe %d has no command", i+1)
		}
		if strings.TrimSpace(p.Expect) == "" {
			return nil, fmt.Errorf("probe %d does not say what it expects", i+1)
		}
	}
	return r.Probes, nil
}

type adversaryFacts struct{ Task, Diffstat string }

// Adversary is the adversarial tester's turn: knowing only the task and
// which files changed, it proposes probes that try to break the result.
// Sentinel runs them itself, on a disposable copy, in the sandbox with the
// network off; the model never runs anything.
func (s *Supervisor) Adversary(ctx context.Context, in AdversaryInput) ([]Probe, error) {
	facts := adversaryFacts{Task: s.task, Diffstat: in.Diffstat}
	sys, err := s.prompts.Render("adversary.system", facts)
	if err != nil {
		return nil, err
	}
	user, err := s.prompts.Render("adversary.user", facts)
	if err != nil {
		return nil, err
	}
	var probes []Probe
	err = s.ask(ctx, KindAdversary, Turn{Role: string(KindAdversary), System: sys, User: user, SchemaName: "probes", Schema: adversarySchema},
		TurnRecord{}, func(r Reply, rec *TurnRecord) error {
			var perr error
			probes, perr = ParseProbes(r.Text)
			rec.Decision, rec.Reason = "probes", fmt.Sprintf("%d probe(s)", len(probes))
			return perr
		})
	return probes, err
}
