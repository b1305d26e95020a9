package tui

import (
	"fmt"
	"testing"

	"github.com/sentinelhq/sentinel/approvals"
	"github.com/sentinelhq/sentinel/policy"
)

func TestX(t *testing.T) {
	eng := policy.Default()
	ctx := policy.Context{Workspace: "/work/ws", Cwd: "/work/ws"}
	for _, c := range []string{"npm run lint", "npm run test", "make lint"} {
		v := eng.Check(policy.Query{Kind: policy.KindShell, Command: c, Context: ctx})
		fmt.Printf("%s: %v %s %+v\n", c, v.Decision, v.Rule, v.Parts)
	}
	past := []approvals.Request{{Kind: "shell", Command: "npm run lint"}, {Kind: "shell", Command: "npm run lint", Cwd: "/work/ws"}}
	fmt.Println(approvals.Preview(approvals.GrantSpec{Scope: "run", Match: approvals.Match{Prefix: []string{"npm", "run"}}}, past, ctx, eng))
}
