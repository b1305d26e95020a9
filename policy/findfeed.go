package policy

import (
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// find | xargs CMD runs CMD on the paths find prints, which lie below its
// starting points, or are the starting points themselves with -maxdepth
// 0: find ~ -maxdepth 0 | xargs rm -rf runs rm -rf ~. For xargsfeed.go
// the items are each starting point as written, with /glob-match (any
// path below it) appended unless the search stays at depth 0. A find that
// acts or prints something other than paths feeds nothing here.

// findActs are find's actions and printers whose output is not the plain
// list of paths.
var findActs = wordSet{words: []string{"-exec", "-execdir", "-ok", "-okdir", "-delete", "-printf", "-fprint",
	"-fprint0", "-fprintf", "-ls", "-fls", "-quit"}}

// findFedItems returns the items find prints, as written (see above).
func findFedItems(s *src, call *syntax.CallExpr, argv []string) []string {
	if len(argv) != len(call.Args) {
		return nil
	}
	i := 1
	for i < len(argv) && (argv[i] == "-H" || argv[i] == "-L" || argv[i] == "-P") {
		i++
	}
	first := i
	for i < len(argv) && !strings.HasPrefix(argv[i], "-") && argv[i] != "(" && argv[i] != "!" {
		i++
	}
	starts := call.Args[first:i]
	depth0 := false
	for j := i; j < len(argv); j++ {
		if findActs.has(argv[j]) {
			return nil
		}
		if argv[j] == "-maxdepth" && j+1 < len(argv) && argv[j+1] == "0" {
			depth0 = true
		}
	}
	var out []string
	for _, w := range starts {
		written := s.slice(w)
		if written == "" {
			return nil
		}
		if !depth0 {
			written += "/glob-match"
		}
		out = append(out, written)
	}
	return out
}
