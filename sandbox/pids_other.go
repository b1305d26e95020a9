//go:build !linux

package sandbox

// DefaultPidsMax is the pids limit when the profile sets none.
const DefaultPidsMax = 4096

func (s *Sandbox) limitPids()  {}
func (s *Sandbox) removePids() {}

// PidsLimit says how the sandbox bounds its processes ("" with none).
func (s *Sandbox) PidsLimit() string { return s.pidsNote }
