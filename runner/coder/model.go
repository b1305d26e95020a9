package coder

// Model is a coder that talks to a model over the network: before
// anything of a run is made, the run checks it has a key or sign-in and
// that its model endpoint answers, so a run that cannot work fails in
// seconds, with one line, and leaves nothing.
type Model interface {
	// SignIn is nil when the coder will find a key or sign-in, else the
	// one-line error naming the fix.
	SignIn() error
	// ModelEndpoint is the base URL the coder sends its model traffic to
	// ("" when the preflight cannot know it) and the fix when it does not
	// answer ("start it, or point X at one that answers").
	ModelEndpoint() (url, fix string, err error)
}

// Hosting is an adapter that runs another agent's program (--coder acp --
// PROGRAM ARGS...). Hosted is that program's argv as it will start: the run
// finds the agent's entry by it (runner/agents) and reads what the entry
// says of it (HostedModel), so the hosting adapter knows no agent.
type Hosting interface {
	Hosted() []string
}
