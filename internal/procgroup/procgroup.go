// Package procgroup owns starting a child in a process group of its own
// and ending that whole group, one small file per platform (a process
// group and kill(-pgid) on Linux and macOS; on Windows a new process
// group, and ending the process itself: its children are not reached,
// which is weaker, and Windows runs no coder anyway — see sandbox.Supported).
// It must not decide when to end anything.
package procgroup
