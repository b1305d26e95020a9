// Command initprobe links the policy package. Run bare, it does nothing
// else, so its start shows what the policy's initialization costs. With
// -check WORKSPACE HOME it also times the first decision (which builds the
// policy's tables) and a second one (TestPolicyInitDoesNoWork logs both).
package main

import (
	"fmt"
	"os"
	"time"

	"github.com/sentinelhq/sentinel/policy"
)

func main() {
	if len(os.Args) != 4 || os.Args[1] != "-check" {
		return
	}
	q := policy.Query{Kind: policy.KindShell, Command: "go test ./...",
		Context: policy.Context{Workspace: os.Args[2], Cwd: os.Args[2], Home: os.Args[3]}}
	start := time.Now()
	first := policy.Default().Check(q)
	firstTook := time.Since(start)
	start = time.Now()
	policy.Default().Check(q)
	fmt.Printf("first decision (%s) %v, second %v\n", first.Decision, firstTook, time.Since(start))
}
