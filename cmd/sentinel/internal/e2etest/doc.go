// Package e2etest owns the helpers of sentinel's end-to-end tests, in
// cmd/sentinel and in the packages under cmd/sentinel/e2e: the binaries
// under test (Main, built once per content by internal/testbin), running
// them, scratch repositories, the journal's and the fake models' views, and
// tmux sessions driven like a person. cmd/sentinel and the packages under
// cmd/sentinel/e2e call it by its own names (cmd/sentinel's TestNoE2EAliases
// checks they bind no local aliases). It must not be imported by non-test
// code, and its waits are bounds on a hang, never speed checks.
package e2etest
