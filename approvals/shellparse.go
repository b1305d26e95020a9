package approvals

import (
	"fmt"

	"github.com/sentinelhq/sentinel/policy"
)

// splitCommands reads a shell line into its simple commands with their
// static argv, through policy.ReadShell (the one shell reader). It is NOT
// a policy: the broker judges requests only with the parts the policy
// engine returns, and these parts carry no decision. It serves where no
// engine verdict is at hand — tokenising `templates add --prefix`,
// re-checking a template's examples when a file loads, and offering grant
// breadths when an engine gave no parts. A command with anything but plain
// words (an expansion, a glob, ~, an escape, an assignment) is Dynamic,
// with no Argv.
func splitCommands(line string) ([]policy.Part, error) {
	l, err := policy.ReadShell(line)
	if err != nil {
		return nil, err
	}
	var parts []policy.Part
	for _, c := range l.Commands() {
		// An escaped word's text is not its value: a template, which
		// compares written words, must not cover it.
		dynamic := c.Dynamic || c.Escaped
		p := policy.Part{Text: c.Text, Dynamic: dynamic, Redirects: c.Redirects}
		if !dynamic {
			p.Argv = c.Args
		}
		parts = append(parts, p)
	}
	return parts, nil
}

// ParseArgv reads one simple command with plain words into its argv, as
// `templates add --prefix/--exact` needs. A compound line, a substitution,
// a glob, an escape or a redirection is an error.
func ParseArgv(text string) ([]string, error) {
	parts, err := splitCommands(text)
	if err != nil {
		return nil, err
	}
	if len(parts) != 1 {
		return nil, fmt.Errorf("%q is not one simple command (found %d); give one command like 'python -m pytest'", text, len(parts))
	}
	p := parts[0]
	if p.Dynamic || len(p.Redirects) > 0 {
		return nil, fmt.Errorf("%q has a substitution, variable, glob, escape or redirection; templates match plain words only (quote a word that holds * ? [ ~ or a backslash)", text)
	}
	return p.Argv, nil
}
