package mcpserver

import (
	"context"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/sentinelhq/sentinel/internal/textsafe"
)

// The SDK checks a call's arguments against the tool's input schema (and
// that the tool exists) before any handler of Sentinel's runs, and
// answers a failed check itself: such a call left no audit line
// (31-ipatk15m). So every tools/call passes auditEveryCall, which journals
// the ones no handler (server.go's tool wrapper, grantGate) did.

// auditedKey carries a call's "a line was written" mark to its handler.
type auditedKey struct{}

// markAudited says ctx's call has its audit line.
func markAudited(ctx context.Context) {
	if done, ok := ctx.Value(auditedKey{}).(*bool); ok {
		*done = true
	}
}

// auditEveryCall journals a tools/call that ended with no audit line: the
// SDK refused it (an argument the schema does not allow, an unknown tool).
func (sh *shared) auditEveryCall(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		call, ok := req.(*mcp.CallToolRequest)
		if method != "tools/call" || !ok {
			return next(ctx, method, req)
		}
		done := new(bool)
		res, err := next(context.WithValue(ctx, auditedKey{}, done), method, req)
		if *done || sh.audit.failed() != nil {
			return res, err
		}
		c := Call{Decision: DecisionError}
		if call.Params != nil {
			c.Tool = call.Params.Name
			c.Args, c.ArgsSummary = summarize(call.Params.Arguments)
		}
		why := "refused before any tool ran"
		if err != nil {
			why = err.Error()
		} else if r, ok := res.(*mcp.CallToolResult); ok && r.IsError {
			var texts []string
			for _, ct := range r.Content {
				if t, ok := ct.(*mcp.TextContent); ok {
					texts = append(texts, t.Text)
				}
			}
			why = strings.Join(texts, " ")
		}
		c.Reason = clip("the SDK refused it before Sentinel's tool ran: " + why)
		if aerr := sh.audit.call(textsafe.Line(c.Tool+" error [sdk] "+c.Reason), c); aerr != nil {
			return nil, aerr
		}
		return res, err
	}
}
