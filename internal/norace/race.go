//go:build race

package norace

// RaceBuild is set when this binary was built with -race.
const RaceBuild = true
