package main

import (
	"fmt"
	"io"
	"text/tabwriter"

	"github.com/sentinelhq/sentinel/approvals"
	"github.com/sentinelhq/sentinel/internal/config"
	"github.com/sentinelhq/sentinel/internal/textsafe"
)

// printSetSettings is plain `sentinel config`: only the keys that have a
// value or a note (a value left out of an untrusted file), each on one
// line with its source, then how many are unset; --all lists every key.
func printSetSettings(out io.Writer, settings []config.Setting) {
	var set []config.Setting
	unset := 0
	for _, s := range settings {
		if s.Value == "" && s.Note == "" {
			unset++
			continue
		}
		set = append(set, s)
	}
	printSettings(out, set)
	if unset > 0 {
		fmt.Fprintf(out, "%d more keys unset: sentinel config show --all lists every key\n", unset)
	}
}

// printTemplateNames lists the remembered approvals a run in root uses, by
// id, name and what each matches, so `sentinel config` tells the whole of what
// decides a run; `sentinel templates show ID` has the rest.
func printTemplateNames(out io.Writer, root string) {
	project := ""
	if root != "" {
		project = approvals.ProjectTemplatesPath(root)
	}
	user, err := approvals.UserTemplatesPath()
	if err != nil {
		fmt.Fprintf(out, "\nremembered approvals: cannot be read: %s\n", textsafe.Line(err.Error()))
		return
	}
	set, err := approvals.LoadTemplates(project, user)
	if err != nil {
		fmt.Fprintf(out, "\nremembered approvals: cannot be read: %s\n", textsafe.Line(err.Error()))
		return
	}
	all := set.All()
	if len(all) == 0 {
		fmt.Fprintln(out, "\nremembered approvals: none (sentinel templates add remembers one)")
		return
	}
	fmt.Fprintf(out, "\nremembered approvals (%d; sentinel templates show ID for one):\n", len(all))
	tw := tabwriter.NewWriter(out, 0, 4, 2, ' ', 0)
	for _, t := range all {
		fmt.Fprintf(tw, "  %s\t%s\t%s\t%s\t%d uses\n", textsafe.Line(t.ID), textsafe.Line(t.Name()), t.Scope, textsafe.Line(t.Match.String()), t.Uses)
	}
	tw.Flush()
}
