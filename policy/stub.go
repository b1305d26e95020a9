package policy

// Placeholder so the rest of the tree compiles until the engine lands.
// TODO(policy): replace with the real engine.

// Engine judges queries against built-in and loaded rules.
type Engine struct{}

// Default returns an engine with the built-in rules only.
func Default() *Engine { return &Engine{} }

// Load returns the built-in rules plus every rule file named (a file that does
// not exist is skipped; a malformed one is an error naming file, line and rule).
func Load(files ...string) (*Engine, error) { return &Engine{}, nil }

// Check judges one query.
func (e *Engine) Check(q Query) Verdict {
	return Verdict{Decision: Ask, Rule: "stub", Reason: "policy engine not built yet"}
}
