package approvals

import (
	"net"
	"path"
	"slices"
	"strconv"

	"github.com/sentinelhq/sentinel/policy"
)

// SuggestGrants lists the breadths a person may remember req at, narrowest
// first: for a shell line, the exact argv and each token prefix down to two
// tokens (`npm run test --watch`, `npm run test`, `npm run`) of the first
// simple command policy asked about; for a write, the exact path, its
// directory and its directory tree (relative to req.Cwd, taken as the
// workspace); for the network, the exact host:port and the host. A command
// with a substitution, a variable, an assignment or a wrapper the policy
// looked through offers nothing: no template could ever cover it.
func SuggestGrants(req Request, verdict policy.Verdict) []Match {
	return SuggestGrantsIn(req, verdict, req.Cwd)
}

// SuggestGrantsIn is SuggestGrants with an explicit workspace for paths.
func SuggestGrantsIn(req Request, verdict policy.Verdict, workspace string) []Match {
	switch req.Kind {
	case policy.KindShell:
		parts := verdict.Parts
		if len(parts) == 0 {
			parts, _ = splitCommands(req.Command) // no engine parts: offer from our own reading
		}
		for _, p := range parts {
			if p.Decision == policy.Allow && len(verdict.Parts) > 0 {
				continue
			}
			if p.Dynamic || p.Argv == nil || !sameAsWritten(p) {
				return nil // nothing a template could ever cover
			}
			return argvBreadths(p.Argv)
		}
	case policy.KindWrite, policy.KindEdit:
		abs := requestPath(req, policy.Context{Workspace: workspace, Cwd: workspace})
		rel, ok := insideWorkspace(abs, workspace)
		if !ok {
			return nil
		}
		out := []Match{{Path: rel}}
		if dir := path.Dir(rel); dir != "." {
			out = append(out, Match{Path: dir + "/*"}, Match{Path: dir + "/**"})
		} else if ext := path.Ext(rel); ext != "" {
			out = append(out, Match{Path: "*" + ext})
		}
		return out
	case policy.KindNet:
		host, port := requestHost(req)
		if host == "" {
			return nil
		}
		var out []Match
		if port != 0 && port != 80 && port != 443 {
			out = append(out, Match{Host: joinHostPort(host, port)})
		} else {
			if port != 0 {
				out = append(out, Match{Host: joinHostPort(host, port)})
			}
			out = append(out, Match{Host: host})
		}
		return out
	}
	return nil
}

func joinHostPort(h string, p int) string {
	if p == 0 {
		return h
	}
	return net.JoinHostPort(h, strconv.Itoa(p))
}

func argvBreadths(argv []string) []Match {
	out := []Match{{Exact: slices.Clone(argv)}}
	min := 2
	if len(argv) < 2 {
		min = 1
	}
	for n := len(argv); n >= min; n-- {
		out = append(out, Match{Prefix: slices.Clone(argv[:n])})
	}
	return out
}

// Preview returns which of the past requests the grant would have approved
// on its own (with policy's allowed parts), so the person sees how broad a
// remembered approval is before choosing it. Requests the policy denies are
// never included.
func Preview(spec GrantSpec, past []Request, ctx policy.Context, eng *policy.Engine) []Request {
	if eng == nil || spec.Match.Validate() != nil {
		return nil
	}
	t := &Template{ID: "preview", Scope: spec.Scope, Match: spec.Match}
	var out []Request
	for _, req := range past {
		v := eng.Check(queryOf(req, ctx))
		if v.Decision == policy.Deny {
			continue
		}
		if _, ok := coveringWith([]*Template{t}, req, v, ctx); ok {
			out = append(out, req)
		}
	}
	return out
}

// Preview is Preview asked of this broker's own chain: its policy (the
// built-in rules with the project's and the user's) and its context. A
// view's remember preview comes from here (through the run), never from an
// engine of its own, so the preview and the broker's decisions agree.
func (b *Broker) Preview(spec GrantSpec, past []Request) []Request {
	return Preview(spec, past, b.cfg.Context, b.cfg.Policy)
}
