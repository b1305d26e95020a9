package policy

import (
	"strings"
	"testing"
)

// TestInertShellValues: a name whose every value on the line is a number
// is no arithmetic sink (inertvalues.go): `i=0; echo $((i+1))` and
// counting loops are allowed, sandbox on and off. A name the environment,
// read, for-in, printf -v, eval, source, a non-number or a function could
// set still asks, naming the spot.
func TestInertShellValues(t *testing.T) {
	off := testEnv(t)
	on := off
	on.Sandboxed = true
	e := Default()
	for _, line := range []string{
		`i=0; echo $((i+1))`,
		`n=3; for ((k=0; k<n; k++)); do echo $k; done`,
		`i=0; ((i++)); echo $i`,
		`i=0; i=$((i+1)); echo "step $((i))"`,
		`i=0; while true; do i=$((i+1)); echo $((i)); break; done`,
		`(( n = 2 )); echo $((n * 3))`,
		`echo $(($# + 1))`,
	} {
		for _, cx := range []Context{off, on} {
			if v := e.Check(Query{Kind: KindShell, Command: line, Context: cx}); v.Decision != Allow {
				t.Errorf("sandbox %v: %q: %s %s: %s", cx.Sandboxed, line, v.Decision, v.Rule, v.Reason)
			}
		}
	}
	for _, line := range []string{
		`echo $((i+1))`,
		`echo $((RANDOM % 10))`,
		`unset RANDOM; RANDOM='a[$(id)]'; echo $((RANDOM))`,
		`echo $((PPID))`,
		`echo $((i)); i=0`,
		`i=0 true; echo $((i))`,
		`x='a[$(touch pwn)]'; echo $((x))`,
		`i=0; read i; echo $((i))`,
		`i=0; read -r i < x; echo $((i))`,
		`i=0; eval "i='a[\$(id)]'"; echo $((i))`,
		`i=0; source ./x; echo $((i))`,
		`i=0; . ./x; echo $((i))`,
		`f(){ i='a[$(id)]'; }; i=0; f; echo $((i))`,
		`i=0; for i in 'a[$(id)]'; do :; done; echo $((i))`,
		`i=0; printf -v i '%s' 'a[$(id)]'; echo $((i))`,
		`i=0; i=$1; echo $((i))`,
		`i=0; i+=x; echo $((i))`,
		`i=0; export i; echo $((i))`,
		`i=0; declare -n i=x; echo $((i))`,
		`i=; : ${i:='a[$(id)]'}; echo $((i))`,
		`i=0; mapfile -t i < x; echo $((i))`,
		// Names bash fills from data itself (review of this session's diff).
		`REPLY=0; read -r < data.txt; echo $((REPLY+1))`,
		`MAPFILE=0; mapfile < data.txt; echo $((MAPFILE))`,
		`OPTARG=0; getopts a: o -a x; echo $((OPTARG))`,
		`REPLY=0; select x in a b; do break; done; echo $((REPLY))`,
		`i=0; coproc cat; echo $((i))`,
		`i=0; (( i = x )); echo $((i))`,
		`i=0; a[i]=1; echo $((a))`,
		`(( i = i )); echo $((i))`,
		`for ((k=j; k<3; k++)); do echo $k; done`,
		`i=0; echo "$((i)) $(id)"`,
		`i=0; rm -rf $((i))`,
		`i=0; bash -c 'i="a[\$(id)]"; echo $((i))'`,
	} {
		for _, cx := range []Context{off, on} {
			if v := e.Check(Query{Kind: KindShell, Command: line, Context: cx}); v.Decision == Allow {
				t.Errorf("sandbox %v: %q allowed: %s: %s", cx.Sandboxed, line, v.Rule, v.Reason)
			}
		}
	}
	// The reading mcp uses names no sink in an inert line, and the sink in
	// the rest.
	if why := Read(`i=0; echo $((i+1))`).EvalSink(); why != "" {
		t.Errorf("EvalSink of an inert line: %s", why)
	}
	if why := Read(`x='a[$(id)]'; echo $((x))`).EvalSink(); !strings.Contains(why, "$(( ))") {
		t.Errorf("EvalSink of a sink: %q", why)
	}
}
