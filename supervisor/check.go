package supervisor

import (
	"context"
	"fmt"
	"time"
)

// Check is `sentinel doctor`'s probe of a backend: it is reachable, the
// model answers, and the answer parses as the judge's structured shape. The
// error says which of those failed and what to do.
func Check(ctx context.Context, b Backend) error {
	return CheckWith(ctx, b, DefaultPrompts(), 60*time.Second)
}

// CheckWith is Check with the prompts and timeout a run would use.
func CheckWith(ctx context.Context, b Backend, p *Prompts, timeout time.Duration) error {
	if b == nil {
		return fmt.Errorf("no supervisor backend configured")
	}
	sys, err := p.Render("check.system", nil)
	if err != nil {
		return err
	}
	user, err := p.Render("check.user", nil)
	if err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	r, err := b.Complete(ctx, Turn{Role: "check", System: sys, User: user, SchemaName: "judgment", Schema: judgeSchema})
	if err != nil {
		if ctx.Err() != nil {
			return fmt.Errorf("supervisor %s: no answer within %s (is the server up and the model loaded?)", b.Name(), timeout)
		}
		return fmt.Errorf("supervisor %s: %w (check the base URL, model and API key)", b.Name(), err)
	}
	if _, err := ParseVerdict(r.Text); err != nil {
		return fmt.Errorf("supervisor %s answered, but not in the structured shape: %w (pick a model that supports structured output)", b.Name(), err)
	}
	return nil
}
