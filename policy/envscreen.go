package policy

// The environment on the coder's own screen. Inside the sandbox every
// process's environment is rebuilt from an allowlist (PATH, HOME, locale,
// the terminal, the proxy, the agent's own named variables; sandbox/
// sandbox.go allowedEnv): the person's secrets are not in it, but the
// agent's own API keys are. Whatever the coder lists lands on its screen
// and so in its next model request, and no secret may ride in a model
// request: a listing that shows every value (env, printenv, alone or
// through stages that pass it on whole, `printenv | sort`, `env | head`)
// asks, in both modes (dumpenv.go). Its most dangerous stage still decides the line: the
// listing written to a file or handed to a program that writes or sends it
// is denied (dumpenv.go). A filter that picks lines out of the listing is
// a search, and it is judged by what it can show, not by how the names it
// looks for are spelled (envfilter.go): only a search that provably shows
// no secret-looking variable's value is allowed, as `printenv
// ANTHROPIC_API_KEY` asks. With the sandbox off the listing is the
// person's environment and asks. Other print-everything modes (set,
// declare -p, make -p, /proc/*/environ, ps e) show more than the process
// environment and keep asking.

// sandboxEnvList reports whether the dump what is the process
// environment's listing, inside the sandbox.
func (c *checkEnv) sandboxEnvList(what string) bool {
	return c.sandbox && (what == "env" || what == "printenv")
}

// envListed allows listing the sandbox's environment when a filter that
// hides every secret follows (judgeDumps asks for any other listing), and
// asks without the sandbox.
func (x *cmdCtx) envListed() {
	if x.c.sandbox {
		x.add(Allow, RuleReadOnly, "lists the sandbox's environment through a filter that shows no secret's value")
		return
	}
	x.add(Ask, RuleEnvPrint, "printing the environment can reveal secrets")
}
