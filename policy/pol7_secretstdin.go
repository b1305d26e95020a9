package policy

import (
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// A secret fed to a command's input (issue 32, polcorp5 A4): `cat <<<
// "$ANTHROPIC_API_KEY"`, base64, rev, head, od or an unquoted heredoc
// print the secret's value into the transcript as `echo "$KEY"` does,
// which asks.

// secretStdin asks when the statement's here-string or unquoted
// here-document expands a secret variable.
func (x *cmdCtx) secretStdin(st *syntax.Stmt) {
	if st == nil {
		return
	}
	if name := secretInHereString(st.Redirs, nil); name != "" {
		x.add(Ask, RuleShellDynamicArg, "feeds $"+name+", a secret's value, to the command's input: it may print it to the transcript")
	}
}

// shortValues yields the values of the one-letter option c in args (-c V,
// -cV, or a cluster ending in c), a cluster stopping at any letter of
// valued.
func shortValues(args []word, c byte, valued string) []string {
	var out []string
	for i := 0; i < len(args); i++ {
		v := args[i].val
		if v == "--" {
			break
		}
		if len(v) < 2 || v[0] != '-' || strings.HasPrefix(v, "--") {
			continue
		}
		for j := 1; j < len(v); j++ {
			if v[j] == c {
				if j+1 < len(v) {
					out = append(out, v[j+1:])
				} else if i+1 < len(args) {
					i++
					out = append(out, args[i].val)
				}
				break
			}
			if strings.IndexByte(valued, v[j]) >= 0 {
				break
			}
		}
	}
	return out
}
