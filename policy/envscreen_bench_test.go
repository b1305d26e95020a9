package policy

import (
	"fmt"
	"strings"
	"testing"
)

// BenchmarkEnvPipeline judges a listing piped through n stages: the time
// per stage must not grow with n (the environment checks walk each
// pipeline once).
func BenchmarkEnvPipeline(b *testing.B) {
	for _, n := range []int{10, 100, 1000} {
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			benchCheck(b, "env"+strings.Repeat(" | sort", n-2)+" | wc -l")
		})
	}
}
