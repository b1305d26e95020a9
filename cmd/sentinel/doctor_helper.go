package main

import (
	"github.com/sentinelhq/sentinel/internal/helperbin"
	"github.com/sentinelhq/sentinel/sandbox"
)

// helperCheck says which program answers the coder's hooks and starts each
// sandboxed command: sentinel-helper beside this binary (fast), or this
// binary itself (every tool call pays the whole program's start).
func helperCheck() sandbox.Check {
	ck := sandbox.Check{Name: helperbin.Name}
	c, err := helperbin.Find()
	switch {
	case err != nil:
		ck.Detail = err.Error()
	case c.Fast:
		ck.OK, ck.Detail = true, "hooks and sandboxed commands start "+c.Path
	default:
		ck.Detail = c.Why + ": hooks and sandboxed commands start the whole sentinel binary (slower)"
		ck.Fix = helperbin.Install
	}
	return ck
}
