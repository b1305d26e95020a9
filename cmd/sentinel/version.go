package main

import (
	"encoding/json"
	"fmt"
	"runtime"
	"runtime/debug"

	"github.com/spf13/cobra"

	"github.com/sentinelhq/sentinel/internal/textsafe"
)

// version is set at build time with -ldflags "-X main.version=v1.2.3".
var version = "dev"

func newVersionCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "version",
		Short: "Print Sentinel's version",
		Args:  noArgs,
		Run: func(*cobra.Command, []string) {
			fmt.Println(versionLine())
		},
	}
}

// versionLine is what sentinel version and sentinel --version print.
func versionLine() string {
	v := version
	if bi, ok := debug.ReadBuildInfo(); ok && v == "dev" {
		for _, s := range bi.Settings {
			if s.Key == "vcs.revision" && len(s.Value) >= 12 {
				v = "dev+" + s.Value[:12]
			}
		}
	}
	return fmt.Sprintf("sentinel %s (%s, %s/%s)", v, runtime.Version(), runtime.GOOS, runtime.GOARCH)
}

func jsonLine(v any) ([]byte, error) {
	b, err := json.Marshal(v)
	return append(textsafe.JSON(b), '\n'), err
}
