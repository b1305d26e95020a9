//go:build !linux

package sandbox

const probeArg = "escape-probe"

func probeMain(args []string) int { return 2 }
