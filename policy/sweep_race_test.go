//go:build race

package policy

// raceBuild: this test binary was built with -race.
const raceBuild = true
