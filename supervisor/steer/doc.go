// Package steer notices when a coder is steering itself away from the task
// — hiding a failing check's exit status, skipping or deleting tests,
// rewriting what a test expects, repeating the same failing command — from
// the run's journal events, and turns each finding into one steering message
// for the coder.
//
// The detectors are pure functions over commands, edits and events; shell
// lines are read by the policy's reader (policy.ReadShell), so a script is
// found where the policy finds it, behind the same wrappers. The
// Watcher feeds them journal events and calls a steer func (the runner's
// Run.Steer). It must not decide approvals and must not block the journal:
// findings are advice to the coder, never a deny.
package steer
