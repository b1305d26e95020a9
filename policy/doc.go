// Package policy decides allow / ask / deny for everything a coder asks to
// do: shell lines (parsed with mvdan.cc/sh, never prefix-matched), writes,
// edits and reads of paths, network hosts and MCP tools. Every answer names
// the deciding rule and a reason.
//
// It is pure: it must not do I/O beyond reading its rule files and resolving
// symlinks of the paths it judges.
package policy
