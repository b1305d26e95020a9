package placeflags

import (
	"path"

	"github.com/sentinelhq/sentinel/internal/runlater"
	"github.com/sentinelhq/sentinel/runner/checkpoint"
)

// Perl, Ruby, Node and Java look a module up in the folders of a search
// path variable before the installed ones: a file the coder adds in a
// folder of the place that the person's PERL5LIB, RUBYLIB, NODE_PATH,
// GEM_PATH, GEM_HOME or CLASSPATH names (lib/JSON/PP.pm, lib/json.rb)
// shadows the module the person's next host command loads, as a Python
// module on PYTHONPATH does (PythonShadows; 31-ipatk15).

// LibPathVars are the search path variables LibPathShadows reads.
var LibPathVars = []string{"PERL5LIB", "RUBYLIB", "NODE_PATH", "GEM_PATH", "GEM_HOME", "CLASSPATH"}

// LibPathShadows flags each change of changes that makes or changes a
// file under a folder of the place that one of LibPathVars names; env
// gives a variable's value (os.Getenv).
func (r Reads) LibPathShadows(changes []checkpoint.Change, env func(string) string) []Flag {
	type on struct {
		name string
		dirs runlater.PathDirs
	}
	var ons []on
	for _, v := range LibPathVars {
		if val := env(v); val != "" {
			ons = append(ons, on{v, runlater.OnSearchPath(r.root, v, val)})
		}
	}
	if len(ons) == 0 {
		return nil
	}
	var out []Flag
	for _, c := range changes {
		a, b := c.After, c.Before
		if a == nil || a.Kind != checkpoint.KindFile && a.Kind != checkpoint.KindSymlink {
			continue
		}
		if b != nil && b.Kind == a.Kind && b.Hash == a.Hash && b.Target == a.Target {
			continue // a mode or time change
		}
	find:
		for dir := path.Dir(c.Path); ; dir = path.Dir(dir) {
			for _, o := range ons {
				if how := o.dirs.Why(dir + "/x"); how != "" {
					out = append(out, Flag{c.Path, "in a folder on your " + o.name + " (" + how + "): the programs you run load it instead of the installed module of that name, on your machine, outside the sandbox"})
					break find
				}
			}
			if dir == "." {
				break
			}
		}
	}
	return out
}
