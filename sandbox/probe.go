package sandbox

// Check is one line of `sentinel doctor`: what was looked at, whether it is
// usable, and how to fix it when not.
type Check struct {
	Name   string `json:"name"`
	OK     bool   `json:"ok"`
	Detail string `json:"detail"`
	Fix    string `json:"fix,omitempty"`
}

// Capabilities is what this machine can enforce.
type Capabilities struct {
	Checks []Check `json:"checks"`
	// Modes are the backends that ran a confined command here; the first
	// is what --sandbox auto picks.
	Modes []Mode `json:"modes"`
}

// Enforceable reports whether any backend can confine a coder here.
func (c Capabilities) Enforceable() bool { return len(c.Modes) > 0 }
