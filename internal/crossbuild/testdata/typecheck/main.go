// Command typecheck type-checks packages (with their tests) and everything
// they import, from source, for the GOOS and GOARCH it is given, and prints
// every error found, one a line: the load's, each package's list, parse and
// type errors. TestModuleBuildsForEveryTarget builds and runs it: a test
// binary under -race type-checks about four times slower than this one.
//
//	typecheck -goos darwin -goarch arm64 ./...
package main

import (
	"flag"
	"fmt"
	"os"
	"strings"

	"golang.org/x/tools/go/packages"
)

func main() {
	goos := flag.String("goos", "", "the target's GOOS")
	goarch := flag.String("goarch", "", "the target's GOARCH")
	flag.Parse()
	if *goos == "" || *goarch == "" || flag.NArg() == 0 {
		fmt.Fprintln(os.Stderr, "usage: typecheck -goos OS -goarch ARCH PATTERN...")
		os.Exit(2)
	}
	cfg := &packages.Config{
		// NeedDeps with NeedTypes and no NeedExportFile: every import is
		// type-checked from its source, nothing is compiled.
		Mode:  packages.NeedName | packages.NeedImports | packages.NeedDeps | packages.NeedTypes,
		Tests: true,
		Env:   append(os.Environ(), "GOOS="+*goos, "GOARCH="+*goarch, "CGO_ENABLED=0"),
	}
	pkgs, err := packages.Load(cfg, flag.Args()...)
	if err != nil {
		fmt.Printf("loading %v: %v\n", flag.Args(), err)
		return
	}
	var errs []string
	packages.Visit(pkgs, nil, func(p *packages.Package) {
		for _, e := range p.Errors {
			errs = append(errs, strings.ReplaceAll(e.Error(), "\n", " "))
		}
	})
	if len(pkgs) == 0 {
		errs = append(errs, fmt.Sprintf("%v matched no package", flag.Args()))
	}
	for _, e := range errs {
		fmt.Println(e)
	}
}
