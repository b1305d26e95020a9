// Command sentinel-helper is the small second program beside sentinel: it
// answers coding agents' hooks (`sentinel-helper hook <agent>`, the same
// answer as `sentinel hook <agent>`) and is the sandbox's re-executed helper.
// Both run once per tool call or sandboxed command, so this program links
// only the hook client, the dialects and the sandbox — none of the terminal
// UI, syntax highlighting or model clients whose package initialisation
// would make every call pay for them. The hook's own part links no more
// than its wire (runner/hookclient's imports test): no policy engine, no
// TOML, and not the net package, whose cgo resolver makes a binary start
// through the dynamic loader and libc. What this program still pays for
// beyond that is the sandbox package's (net for its proxy, TOML). Sentinel
// uses it when it sits beside the sentinel executable (go install
// ./cmd/...); see internal/helperbin.
package main

import (
	"fmt"
	"os"

	"github.com/sentinelhq/sentinel/internal/helperbin"
	"github.com/sentinelhq/sentinel/runner/hookclient"
	"github.com/sentinelhq/sentinel/sandbox"
)

func main() {
	args := os.Args[1:]
	switch {
	case len(args) > 0 && args[0] == sandbox.HelperArg:
		os.Exit(sandbox.HelperMain(args[1:]))
	case len(args) > 0 && args[0] == "hook":
		os.Exit(hookclient.Main(args[1:], os.Stdin, os.Stdout, os.Stderr))
	case len(args) == 1 && args[0] == helperbin.StampArg:
		fmt.Println(helperbin.Stamp())
	default:
		fmt.Fprintln(os.Stderr, "sentinel-helper: internal use only (sentinel starts it for hooks and the sandbox); run sentinel")
		os.Exit(2)
	}
}
