package runner

import "github.com/sentinelhq/sentinel/policy"

// PolicyOf is the policy a run in project p judges by: the built-in rules,
// the person's and the project's rule files (the project's wherever its
// state lives), as startBroker loads them. The web page previews a
// remembered breadth with it, as the run's own chooser does.
func PolicyOf(p *Project) (*policy.Engine, error) {
	files, _ := policyFiles(p)
	return policy.Load(files...)
}
