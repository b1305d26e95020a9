// Command sentinel-helper is the small second program beside sentinel: it
// answers coding agents' hooks (`sentinel-helper hook <agent>`, the same
// answer as `sentinel hook <agent>`), is the sandbox's re-executed helper,
// and, shown over the system shells in an in-place sandbox, the wrapper
// that puts each command an agent starts in its own signal scope
// (internal/shellscope).
// Both run once per tool call or sandboxed command, so this program links
// only the hook client, the dialects and the sandbox's in-namespace side
// (sandbox/inside) — none of the terminal UI, syntax highlighting, model
// clients or the sandbox's host side (its proxy, TOML) whose package
// initialisation would make every call pay for them. Nothing it links
// imports the net package, whose cgo resolver makes a binary start through
// the dynamic loader and libc (runner/hookclient's imports test holds
// this). Sentinel uses it when it sits beside the sentinel executable (go
// install ./cmd/...); see internal/helperbin (its stamp, internal/helperbin/stamp, is all of it linked here).
package main

import (
	"fmt"
	"os"

	"github.com/sentinelhq/sentinel/internal/helperbin/stamp"
	"github.com/sentinelhq/sentinel/internal/shellscope"
	"github.com/sentinelhq/sentinel/runner/hookclient"
	"github.com/sentinelhq/sentinel/sandbox/inside"
)

func main() {
	if real, ok := shellscope.Invoked(); ok { // shown over a shell in the sandbox
		os.Exit(shellscope.Main(real))
	}
	args := os.Args[1:]
	switch {
	case len(args) > 0 && args[0] == inside.Arg:
		os.Exit(inside.Main(args[1:]))
	case len(args) > 0 && args[0] == "hook":
		os.Exit(hookclient.Main(args[1:], os.Stdin, os.Stdout, os.Stderr))
	case len(args) == 1 && args[0] == stamp.Arg:
		fmt.Println(stamp.Stamp())
	default:
		fmt.Fprintln(os.Stderr, "sentinel-helper: internal use only (sentinel starts it for hooks and the sandbox); run sentinel")
		os.Exit(2)
	}
}
