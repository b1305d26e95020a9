// Package e2etest owns the helpers of sentinel's end-to-end tests, in
// cmd/sentinel and in the packages under cmd/sentinel/e2e: the binaries
// under test (Main, built once per content by internal/testbin), running
// them, scratch repositories, the journal's and the fake models' views, and
// tmux sessions driven like a person. Test packages reach it through their
// helpers_test.go, which gives each helper the lower-case name the tests
// use. It must not be imported by non-test code, and its waits are bounds
// on a hang, never speed checks.
package e2etest
