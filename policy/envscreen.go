package policy

import "mvdan.cc/sh/v3/syntax"

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

// envListed allows listing the sandbox's environment when the command is
// a pipeline stage followed by a filter that hides every secret
// (screenEnvListings), and asks otherwise: a listing on its own, passed on
// whole, or run by a wrapper that builds the command from its arguments
// (nix develop -c env, bundle exec env), and any listing without the
// sandbox.
func (x *cmdCtx) envListed() {
	if x.c.sandbox && x.call != nil && x.c.envScreened[x.call] {
		x.add(Allow, RuleReadOnly, "lists the sandbox's environment through a filter that shows no secret's value")
		return
	}
	if x.c.sandbox {
		x.add(Ask, RuleEnvPrint, "lists the environment unfiltered: the agent's own keys would reach the coder's screen and its next model request")
		return
	}
	x.add(Ask, RuleEnvPrint, "printing the environment can reveal secrets")
}

// pipeScreen is what the one walk of a line's pipelines learns of one:
// its stages, which of them list the environment, and for each i whether
// stages[i:] hide every secret's value.
type pipeScreen struct {
	stages []*syntax.Stmt
	dump   []bool
	hides  []bool
}

// screenEnvListings walks the line's pipelines once, before the line is
// judged: it marks every stage that lists the environment and is followed
// only by stages that hide every secret's value, and returns what it
// learnt for judgeDumps, which runs after. A pipeline of n stages is one
// BinaryCmd per stage; each is read once, its stages once, and the
// filters after each listing in one pass from the end, so the cost is
// linear in the stages (BenchmarkEnvPipeline).
func (c *checkEnv) screenEnvListings(text string, f *syntax.File) map[*syntax.BinaryCmd]*pipeScreen {
	if !mayDumpText(text) || !c.hasDump(f) {
		return nil
	}
	pipes := map[*syntax.BinaryCmd]*pipeScreen{}
	var walk func(n syntax.Node) bool
	walk = func(n syntax.Node) bool {
		b, ok := n.(*syntax.BinaryCmd)
		if !ok || b.Op != syntax.Pipe && b.Op != syntax.PipeAll {
			return true
		}
		p := c.screenPipe(pipeStages(b))
		pipes[b] = p
		for i, st := range p.stages {
			if call, ok := st.Cmd.(*syntax.CallExpr); ok && c.sandbox && p.dump[i] && p.hides[i+1] {
				if c.envScreened == nil {
					c.envScreened = map[*syntax.CallExpr]bool{}
				}
				c.envScreened[call] = true
			}
			syntax.Walk(st, walk) // pipelines inside a stage; never this one's own inner BinaryCmds
		}
		return false
	}
	syntax.Walk(f, walk)
	return pipes
}

// screenPipe reads a pipeline's stages: which list the environment, and,
// from the last stage back, whether the stages from each on hide every
// secret, reading each stage once (filterStage).
func (c *checkEnv) screenPipe(stages []*syntax.Stmt) *pipeScreen {
	n := len(stages)
	p := &pipeScreen{stages: stages, dump: make([]bool, n), hides: make([]bool, n+1)}
	// hides[j]: stages[j:] hide, nothing kept so far; kept[j]: the same
	// once an earlier stage has already kept only named lines.
	kept := make([]bool, n+1)
	kept[n] = true
	for j := n - 1; j >= 0; j-- {
		p.dump[j] = c.hasDump(stages[j])
		switch kind, hides := c.filterStage(stages[j]); kind {
		case stagePasses:
			p.hides[j], kept[j] = p.hides[j+1], kept[j+1]
		case stageKeepsNamed:
			p.hides[j], kept[j] = kept[j+1], kept[j+1]
		default:
			p.hides[j], kept[j] = hides, hides
		}
	}
	return p
}
