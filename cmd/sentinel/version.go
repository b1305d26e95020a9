package main

import (
	"encoding/json"
	"fmt"
	"os"
	"runtime"
	"runtime/debug"

	"github.com/spf13/cobra"

	"github.com/sentinelhq/sentinel/internal/textsafe"
)

// version is set at build time with -ldflags "-X main.version=v1.2.3".
var version = "dev"

func newVersionCmd() *cobra.Command {
	var check bool
	cmd := &cobra.Command{
		Use:   "version",
		Short: "Print Sentinel's version; --check: is there a newer one",
		Long: `Print Sentinel's version. With --check, also ask the Go module proxy (the
first of GOPROXY, else proxy.golang.org) for the newest release and say how
to update when this one is older. Nothing else reaches the network for this.`,
		Args: noArgs,
		RunE: func(c *cobra.Command, _ []string) error {
			fmt.Fprintln(c.OutOrStdout(), versionLine())
			if check {
				return checkNewer(c.Context(), c.OutOrStdout(), os.Getenv)
			}
			return nil
		},
	}
	cmd.Flags().BoolVar(&check, "check", false, "ask the Go module proxy whether a newer version exists")
	return cmd
}

// versionLine is what sentinel version and sentinel --version print.
func versionLine() string {
	bi, _ := debug.ReadBuildInfo()
	return fmt.Sprintf("sentinel %s (%s, %s/%s)", versionOf(version, bi), runtime.Version(), runtime.GOOS, runtime.GOARCH)
}

// versionOf is the version a binary reports: the one stamped with -ldflags
// when there is one; else the module's, which go install records
// ("go install …/cmd/sentinel@v1.2.3" gives v1.2.3, a commit gives its
// pseudo-version); else, for a build in a checkout, dev and the commit it
// was built from (+dirty with uncommitted changes); else dev.
func versionOf(stamped string, bi *debug.BuildInfo) string {
	if stamped != "dev" || bi == nil {
		return stamped
	}
	if v := bi.Main.Version; v != "" && v != "(devel)" {
		return v
	}
	var rev, dirty string
	for _, s := range bi.Settings {
		switch {
		case s.Key == "vcs.revision":
			rev = s.Value
		case s.Key == "vcs.modified" && s.Value == "true":
			dirty = "+dirty"
		}
	}
	if rev == "" {
		return stamped
	}
	if len(rev) > 12 {
		rev = rev[:12]
	}
	return "dev+" + rev + dirty
}

func jsonLine(v any) ([]byte, error) {
	b, err := json.Marshal(v)
	return append(textsafe.JSON(b), '\n'), err
}
