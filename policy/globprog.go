package policy

import (
	"path"
	"sort"
)

// A glob as the command name: `/???/r? -rf ~`, `/b*n/rm -rf ~` and
// `/usr/bin/c?mod -R 777 /` name a system program through a pattern bash
// expands before it runs. The name still asks (which files a pattern
// matches is not known before it runs), and the line is also judged as
// each program of the system directories the policy knows that the
// pattern can match: a deny of any of those readings is the line's. Only a
// deny is taken from them: every matching reading adds to the ask, and
// none can lower it.

// globPrograms returns the system programs the policy knows that pattern
// matches, in the system directories (command.go systemDirs).
func globPrograms(pattern string) []string {
	if _, err := path.Match(pattern, ""); err != nil || pattern == "" || pattern[0] != '/' {
		return nil
	}
	loadPrograms()
	names := make([]string, 0, len(programs.handlers))
	for n := range programs.handlers {
		names = append(names, n)
	}
	sort.Strings(names)
	var out []string
	for _, d := range systemDirs {
		for _, n := range names {
			if ok, _ := path.Match(pattern, d+n); ok {
				out = append(out, d+n)
			}
		}
	}
	return out
}
