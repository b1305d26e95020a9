package policy

import (
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// A secret's value written into a file by the shell's own printers:
// `printf '%s\n' "$ANTHROPIC_API_KEY" > k.txt`, `echo "…:_authToken=$NPM_TOKEN"
// >> .npmrc`. The variable is one the line did not bind and whose name
// says it holds a credential (secretWriteParts: narrower than
// secretLookingName, which also counts USER and URL); the value then sits
// in the project, where a commit or a later upload carries it off. Denied
// as `env > out.txt` is.

// secretWriteParts are the parts of a variable name that say its value is
// a credential.
var secretWriteParts = []string{"key", "token", "secret", "passw", "credential", "auth", "cookie", "private",
	"dsn", "webhook", "jwt", "bearer"}

func secretValueName(n string) bool {
	l := strings.ToLower(n)
	for _, p := range secretWriteParts {
		if strings.Contains(l, p) {
			return true
		}
	}
	return false
}

// judgeSecretWrites denies echo or printf writing an unbound
// secret-named variable's value into a file.
func (c *checkEnv) judgeSecretWrites(s *src, f *syntax.File) {
	if !strings.Contains(s.text, "$") {
		return
	}
	bound := linesNames(f)
	c.judgeSecretSends(s, f, bound) // secretsinks.go: curl "…?k=$API_KEY", echo "$KEY" | nc …
	syntax.Walk(f, func(n syntax.Node) bool {
		st, ok := n.(*syntax.Stmt)
		if !ok {
			return true
		}
		if call, isCall := st.Cmd.(*syntax.CallExpr); isCall && !c.writesFile(st.Redirs) && len(call.Args) > 0 && c.isSink(call) {
			// tee k.txt <<< "$KEY": a program that writes what it reads
			if name := secretInHereString(st.Redirs, bound); name != "" {
				c.addPart(Part{Text: s.slice(st), Via: "dump", Decision: Deny, Rule: RuleEnvDumpSink,
					Reason: "hands $" + name + ", a secret's value, to a program that writes or sends it"})
			}
			return true
		}
		if !c.writesFile(st.Redirs) {
			return true
		}
		// echo "$KEY", printf %s "$KEY", cat <<< "$KEY": secretsinks.go
		if name := c.printsSecret(st, bound); name != "" {
			c.addPart(Part{Text: s.slice(st), Via: "dump", Decision: Deny, Rule: RuleEnvDumpSink,
				Reason: "writes $" + name + ", a secret's value, into a file"})
		}
		return true
	})
}

// secretExpanded names an unbound secret-named variable whose value one
// of ws expands (not its name alone, not inside a substitution, which is
// judged as its own command).
func secretExpanded(ws []*syntax.Word, bound map[string]bool) string {
	name := ""
	for _, w := range ws {
		syntax.Walk(w, func(n syntax.Node) bool {
			switch p := n.(type) {
			case *syntax.CmdSubst, *syntax.ProcSubst:
				return false
			case *syntax.ParamExp:
				if p.Param == nil || p.Excl || p.Length || name != "" {
					return false
				}
				if !bound[p.Param.Value] && secretValueName(p.Param.Value) {
					name = p.Param.Value
				}
			}
			return true
		})
	}
	return name
}

// linesNames are the variables the line itself sets anywhere: assigned,
// loop-bound or read.
func linesNames(f *syntax.File) map[string]bool {
	names := map[string]bool{}
	syntax.Walk(f, func(n syntax.Node) bool {
		switch x := n.(type) {
		case *syntax.Assign:
			if x.Name != nil {
				names[x.Name.Value] = true
			}
		case *syntax.WordIter:
			names[x.Name.Value] = true
		case *syntax.CallExpr:
			if len(x.Args) > 0 && x.Args[0].Lit() == "read" || len(x.Args) > 0 && x.Args[0].Lit() == "mapfile" {
				for _, a := range x.Args[1:] {
					names[a.Lit()] = true
				}
			}
		}
		return true
	})
	return names
}
