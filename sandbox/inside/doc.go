// Package inside is the sandbox's in-namespace side: what the helper
// (sentinel-helper, or the sentinel binary, re-executed with Arg) does
// inside the new namespaces before the command runs — build the root from
// the mount plan (ns backend; BwrapArgs says the same plan in bubblewrap's
// words), mount an overlay workspace, bring up loopback and forward it to
// Sentinel's proxy socket, then confine one thread (capabilities,
// no-new-privs, Landlock with denied executables carved out, seccomp) and
// start the command from it — plus the exec watcher and the overlay view.
// Spec, made by the sandbox package, says what to do; it travels as one
// JSON argument.
//
// It is its own package so that sentinel-helper, started for every tool
// call as the hook, links only this and not the sandbox package's host side
// (its proxy links net and net/http, and net's cgo resolver made every
// start go through the dynamic loader). It must stay light: no net, no
// regexp, no work at package initialisation (runner/hookclient's imports
// test holds the first two).
//
// Its lists (the system locations every sandbox shows) are unexported like
// the sandbox package's: nothing outside can change what a coder reaches.
package inside
