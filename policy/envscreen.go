package policy

import (
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// The environment on the coder's own screen. Inside the sandbox every
// process's environment is rebuilt from an allowlist (PATH, HOME, locale,
// the terminal, the proxy, the agent's own named variables; sandbox/
// sandbox.go allowedEnv): the person's secrets are not in it. So listing
// it with env or printenv, alone or through filters (`env | grep -i
// ^node_`, `printenv | sort`), shows the coder what it already runs with:
// allowed. Its most dangerous stage still decides the line: the listing
// written to a file or handed to a program that writes or sends it is
// denied (dumpenv.go), and a filter that looks for secrets by name (`env |
// grep -i token`) asks, as `printenv ANTHROPIC_API_KEY` does. With the
// sandbox off the listing is the person's environment and asks. Other
// print-everything modes (set, declare -p, make -p, /proc/*/environ, ps e)
// show more than the process environment and keep asking.

// sandboxEnvList reports whether the dump what is the process
// environment's listing, inside the sandbox.
func (c *checkEnv) sandboxEnvList(what string) bool {
	return c.sandbox && (what == "env" || what == "printenv")
}

// envListed allows listing the sandbox's environment, and asks without it.
func (x *cmdCtx) envListed() {
	if x.c.sandbox {
		x.add(Allow, RuleReadOnly, "lists the sandbox's environment, rebuilt from an allowlist without the person's secrets")
		return
	}
	x.add(Ask, RuleEnvPrint, "printing the environment can reveal secrets")
}

// secretWords name variables that hold credentials.
var secretWords = []string{"key", "token", "secret", "passw", "credential", "auth", "cookie", "session", "private"}

// filtersForSecrets reports a pipeline stage after a dump whose words
// search for a secret by name.
func (c *checkEnv) filtersForSecrets(stages []*syntax.Stmt) bool {
	for _, st := range stages {
		call, ok := st.Cmd.(*syntax.CallExpr)
		if !ok {
			return true // a compound stage: not a plain filter
		}
		argv := c.staticArgv(call)
		if argv == nil {
			return true
		}
		for _, a := range argv[1:] {
			l := strings.ToLower(a)
			for _, s := range secretWords {
				if strings.Contains(l, s) {
					return true
				}
			}
		}
	}
	return false
}
