package policy

import "strings"

// ctest --preset NAME names a test preset of the project's own
// CMakePresets.json, as cmake --preset does (ecosystems_native.go judges
// that one so): not a module loaded from elsewhere, which --preset means
// to jest and the other test runners projectTool knows. A preset whose name
// is not a plain token still asks there.

// ctestCmd judges ctest: its presets as cmake's, the rest as projectTool.
func ctestCmd(x *cmdCtx, args []word) {
	rest := []word{args[0]}
	for i := 1; i < len(args); i++ {
		v := args[i].val
		switch {
		case v == "--preset" && i+1 < len(args) && args[i].static && args[i+1].static && plainToken(args[i+1].val):
			i++
		case strings.HasPrefix(v, "--preset=") && args[i].static && plainToken(v[len("--preset="):]):
		default:
			rest = append(rest, args[i])
		}
	}
	projectTool(x, rest)
}
