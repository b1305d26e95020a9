package policy

import (
	"fmt"
	"strings"
	"testing"
)

// nestedLine is a line of depth nested substitutions in one of the
// spellings a coder controls: $( … ), "$( … )" and backticks-free
// $( … ) inside an argument list.
func nestedLine(form string, depth int) string {
	switch form {
	case "quoted":
		return strings.Repeat(`echo "$(`, depth) + "x" + strings.Repeat(`)"`, depth)
	case "args":
		return strings.Repeat("ls a $(cat b ", depth) + "x" + strings.Repeat(" c)", depth)
	default:
		return strings.Repeat("echo $(", depth) + "x" + strings.Repeat(")", depth)
	}
}

// BenchmarkCheckNestedDepth judges lines of 10, 50 and 200 nested $( to
// show how the cost grows with depth (linear: ns/op per level stays flat).
//
//	go test -run '^$' -bench CheckNestedDepth -benchtime 20x ./policy/
func BenchmarkCheckNestedDepth(b *testing.B) {
	for _, form := range []string{"plain", "quoted", "args"} {
		for _, d := range []int{10, 50, 200} {
			b.Run(fmt.Sprintf("%s/depth=%d", form, d), func(b *testing.B) { benchCheck(b, nestedLine(form, d)) })
		}
	}
}
