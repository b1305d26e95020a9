package policy

import "testing"

// EvalSink names each place bash evaluates a value as code that the line
// does not spell, and none in arithmetic on literals or plain expansions.
func TestEvalSinkFindsValuesBashRunsAsCode(t *testing.T) {
	sinks := []string{
		`ls $((x))`, `ls $[x]`, `for ((i=0;i<3;i++)); do i=x; done`, `ls $(( $x + 1 ))`, `(( x ))`, `for ((i=x;i<1;i++)); do :; done`, `let x=1`,
		`ls ${x@P}`, `ls ${!x}`, `ls ${a[x]}`, `ls ${a[$x]}`, `ls ${#a[x]}`, `ls ${x:x}`, `ls ${x:0:$n}`,
		`a[x]=1`, `a=([x]=1)`, `declare -i y=1`, `typeset -in y`, `declare -n r=x`, `declare "$x"`,
		`[[ $x -eq 0 ]]`, `[[ 1 -lt y ]]`, `[[ -v $x ]]`, `[[ -v a[x] ]]`, `cat <<< $((x))`,
		// ipatk17m: the parser keeps an extended pattern as text.
		"[[ a == @(a|$(id)) ]]", "[[ a = !($(id)) ]]", "[[ a != +(x|`id`) ]]", "[[ a == *(${x@P}) ]]", "[[ a == ?($((x))) ]]",
	}
	for _, line := range sinks {
		if Read(line).EvalSink() == "" {
			t.Errorf("%q: no sink found", line)
		}
	}
	for _, line := range []string{
		`ls`, `ls $((1+2*3))`, `ls $((0x1f))`, `ls ${a[0]} ${a[@]} ${a[*]} ${!a[@]} ${!pre*}`, `ls ${x:1:2} ${x#a} ${x/a/b} ${#x}`,
		`a[0]=1`, `a=([1]=x)`, `declare -x FOO=1`, `export A=b`, `[[ 1 -eq 1 ]]`, `[[ -v HOME ]]`, `[[ -v a[2] ]]`,
		`x='a[$(id)]'; ls "$x"`,
		// off28: a name set first to a literal number and only ever to
		// numbers is inert (inertvalues.go); this counting loop was a
		// sink before only because any name was one.
		`for ((i=0;i<3;i++)); do :; done`, `i=0; echo $((i+1))`,
		`[[ $f == @(*.go|*.md) ]]`, `[[ a == !(b) ]]`,
	} {
		if why := Read(line).EvalSink(); why != "" {
			t.Errorf("%q: %s", line, why)
		}
	}
}
