package codex

import (
	"path"
	"strings"

	"github.com/sentinelhq/sentinel/policy"
)

// loginShells are the shells Codex wraps every command in.
var loginShells = map[string]bool{"bash": true, "sh": true, "zsh": true, "dash": true}

// UnwrapShell returns the script of Codex's own shell wrapper. Codex 0.171
// reports every exec_command as `/bin/bash -lc '<the model's cmd>'`; the
// policy would see only a login shell (ask), so the broker is asked about
// the script itself. Only an exact `<shell> -c|-lc <one plain word>` is
// unwrapped, read by the policy's own reader (policy.ReadShell): the shell
// one the policy reads as that shell (bash, /bin/bash, /usr/bin/zsh — not
// /usr/local/bin/bash or ./bash, which it judges as path programs), the
// script one plain word in plain, single or double quotes, and the same
// script the policy finds there. Anything else comes back unchanged, and
// is judged as it stands.
func UnwrapShell(command string) (string, bool) {
	l, err := policy.ReadShell(command)
	if err != nil || len(l.Stmts) != 1 {
		return command, false
	}
	st := l.Stmts[0]
	c := st.Cmd
	if c == nil || st.Negated || st.Async || c.Dynamic || c.Escaped || len(c.Redirects) > 0 || len(c.Args) != 3 {
		return command, false
	}
	if !loginShells[path.Base(c.Args[0])] || c.Args[1] != "-c" && c.Args[1] != "-lc" {
		return command, false
	}
	script, ok := c.Script()
	if !ok || script != c.Args[2] || strings.TrimSpace(script) == "" {
		return command, false
	}
	return script, true
}
