package config

// Layering: a later file's settings over an earlier one's, table by table.

func (c *Config) merge(o Config) {
	if o.Coder != "" {
		c.Coder = o.Coder
	}
	if o.Theme != "" {
		c.Theme = o.Theme
	}
	if o.ReduceMotion != nil {
		c.ReduceMotion = o.ReduceMotion
	}
	if len(o.Verify.Commands) > 0 {
		c.Verify.Commands = o.Verify.Commands
	}
	if o.Verify.Timeout != "" {
		c.Verify.Timeout = o.Verify.Timeout
	}
	if o.Journal.MaxOutput != "" {
		c.Journal.MaxOutput = o.Journal.MaxOutput
	}
	c.Supervisor = mergeSupervisor(c.Supervisor, o.Supervisor)
	c.Sandbox.AllowHosts = append(c.Sandbox.AllowHosts, o.Sandbox.AllowHosts...)
	c.Sandbox.Hidden = append(c.Sandbox.Hidden, o.Sandbox.Hidden...)
	c.Sandbox.Readable = append(c.Sandbox.Readable, o.Sandbox.Readable...)
	if o.Sandbox.SSHAgent {
		c.Sandbox.SSHAgent = true
	}
	if o.Sandbox.PidsMax != 0 {
		c.Sandbox.PidsMax = o.Sandbox.PidsMax
	}
	if o.Service.RequireLauncher {
		c.Service.RequireLauncher = true
	}
	c.Service.AllowedApps = append(c.Service.AllowedApps, o.Service.AllowedApps...)
	c.Service.BlockedDirs = append(c.Service.BlockedDirs, o.Service.BlockedDirs...)
	c.Service.DeniedExecutables = append(c.Service.DeniedExecutables, o.Service.DeniedExecutables...)
	c.Exec.Writable = append(c.Exec.Writable, o.Exec.Writable...)
	if o.Exec.CheckpointMaxFileMiB != 0 {
		c.Exec.CheckpointMaxFileMiB = o.Exec.CheckpointMaxFileMiB
	}
	if o.Exec.CheckpointMaxTotalMiB != 0 {
		c.Exec.CheckpointMaxTotalMiB = o.Exec.CheckpointMaxTotalMiB
	}
	if o.Service.Grace != "" {
		c.Service.Grace = o.Service.Grace
	}
	if o.Service.ScanInterval != "" {
		c.Service.ScanInterval = o.Service.ScanInterval
	}
	if o.Notify.Command != "" {
		c.Notify.Command = o.Notify.Command
	}
	if o.Notify.Desktop != nil {
		c.Notify.Desktop = o.Notify.Desktop
	}
	if o.Notify.Bell != nil {
		c.Notify.Bell = o.Notify.Bell
	}
	if o.Notify.Title != nil {
		c.Notify.Title = o.Notify.Title
	}
	if o.Notify.Terminal != "" {
		c.Notify.Terminal = o.Notify.Terminal
	}
	for dst, src := range map[*string]string{&c.Notify.Push: o.Notify.Push, &c.Notify.PushTopic: o.Notify.PushTopic,
		&c.Service.Web: o.Service.Web, &c.Service.WebURL: o.Service.WebURL} {
		if src != "" {
			*dst = src
		}
	}
}

// mergeSupervisor lays o's [supervisor] over c's: a file that names a
// backend sets the whole section (a model or URL meant for one backend must
// not carry over to another); one that does not (say, only a timeout, with
// the backend chosen by --supervisor) sets the fields it has.
//
// The role sections follow the same rule among themselves, and a file that
// names the [supervisor] backend sets them too (they were written for the
// backend it replaces).
func mergeSupervisor(c, o Supervisor) Supervisor {
	if o.Backend != "" {
		return o
	}
	for _, name := range RoleNames {
		*c.Role(name) = mergeRole(*c.Role(name), *o.Role(name))
	}
	m := mergeRole(c.model(), o.model())
	c.BaseURL, c.Model, c.APIKeyEnv, c.Timeout, c.MaxTokens, c.Command = m.BaseURL, m.Model, m.APIKeyEnv, m.Timeout, m.MaxTokens, m.Command
	if o.Prompts != "" {
		c.Prompts = o.Prompts
	}
	return c
}

// model is the section's own model keys, in a role section's shape.
func (s Supervisor) model() Role {
	return Role{Backend: s.Backend, BaseURL: s.BaseURL, Model: s.Model, APIKeyEnv: s.APIKeyEnv,
		Timeout: s.Timeout, MaxTokens: s.MaxTokens, Command: s.Command}
}

// mergeRole lays o's role section over c's by mergeSupervisor's rule.
func mergeRole(c, o Role) Role {
	if o.Backend != "" {
		return o
	}
	set := func(dst *string, v string) {
		if v != "" {
			*dst = v
		}
	}
	set(&c.BaseURL, o.BaseURL)
	set(&c.Model, o.Model)
	set(&c.APIKeyEnv, o.APIKeyEnv)
	set(&c.Timeout, o.Timeout)
	set(&c.Command, o.Command)
	if o.MaxTokens > 0 {
		c.MaxTokens = o.MaxTokens
	}
	return c
}
