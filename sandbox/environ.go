package sandbox

// Environ is the environment the sandbox's commands get (the allowlist, the
// agent's named variables, the proxy's and the profile's additions), as
// Command gives it: a decision about a command can read where its tools
// will write (GOMODCACHE, CARGO_HOME, npm_config_prefix) as they will.
func (s *Sandbox) Environ() []string { return s.env(s.p.TempDir) }
