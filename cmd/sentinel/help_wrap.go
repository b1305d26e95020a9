package main

// --help fits the terminal: the long description and the flags are wrapped
// to its width (or $COLUMNS when the output is not a terminal); with no
// width known the text is printed as written.

import (
	"io"
	"os"
	"regexp"
	"strconv"
	"strings"

	"github.com/charmbracelet/x/ansi"
	"github.com/spf13/cobra"
	"golang.org/x/term"
)

// helpWidth is the width help is wrapped to, 0 for none.
func helpWidth() int {
	if w, _, err := term.GetSize(int(os.Stdout.Fd())); err == nil && w > 0 {
		return w
	}
	if w, err := strconv.Atoi(os.Getenv("COLUMNS")); err == nil && w > 0 {
		return w
	}
	return 0
}

// wrapHelp makes root's help and usage (and its commands', which inherit
// them) wrap to helpWidth.
func wrapHelp(root *cobra.Command) {
	cobra.AddTemplateFunc("helpWidth", helpWidth)
	cobra.AddTemplateFunc("wrapHelp", func(s string) string { return reflow(s, helpWidth()) })
	help := strings.Replace(root.HelpTemplate(), "{{. | trimTrailingWhitespaces}}", "{{. | wrapHelp | trimTrailingWhitespaces}}", 1)
	root.SetHelpTemplate(help)
	usage := root.UsageTemplate()
	for _, set := range []string{"LocalFlags", "InheritedFlags"} {
		usage = strings.Replace(usage, "{{."+set+".FlagUsages | trimTrailingWhitespaces}}",
			"{{(."+set+".FlagUsagesWrapped (helpWidth)) | trimTrailingWhitespaces}}", 1)
	}
	usage = strings.Replace(usage, "{{.Example}}", "{{.Example | wrapHelp}}", 1)
	root.SetUsageTemplate(usage)
	// what the templates cannot reach (the command lists, the last line) is
	// wrapped on the way out, under its own column
	orig := root.HelpFunc()
	root.SetHelpFunc(func(c *cobra.Command, args []string) {
		w := helpWidth()
		if w <= 0 {
			orig(c, args)
			return
		}
		out := c.OutOrStdout()
		var buf strings.Builder
		c.SetOut(&buf)
		orig(c, args)
		c.SetOut(out)
		for _, l := range strings.Split(buf.String(), "\n") {
			_, _ = io.WriteString(out, hang(l, w)+"\n")
		}
	})
}

// hang wraps one line to w cells, its continuation under its description
// column (a command list) or its indent.
func hang(l string, w int) string {
	if ansi.StringWidth(l) <= w-1 {
		return l
	}
	indent := len(l) - len(strings.TrimLeft(l, " "))
	// a command list's description column ("  name   Short"); compiled
	// here, where help is shown, not at every start
	if m := regexp.MustCompile(`^\s+\S+\s{2,}`).FindString(l); m != "" {
		indent = len(m)
	}
	indent = min(indent, w/2)
	first := ansi.Wordwrap(l, w-1, "")
	head, rest, _ := strings.Cut(first, "\n")
	if rest == "" {
		return head
	}
	rest = strings.Join(strings.Fields(rest), " ")
	wrapped := strings.Split(ansi.Wordwrap(rest, w-1-indent, ""), "\n")
	for i := range wrapped {
		wrapped[i] = strings.Repeat(" ", indent) + wrapped[i]
	}
	return head + "\n" + strings.Join(wrapped, "\n")
}

// reflow wraps text to w cells (none when w ≤ 0): a paragraph of plain lines
// is joined and refilled; a paragraph with an indented or listed line keeps
// its lines, each wrapped on its own.
func reflow(text string, w int) string {
	if w <= 0 {
		return text
	}
	paras := strings.Split(text, "\n\n")
	for i, p := range paras {
		lines := strings.Split(p, "\n")
		kept := false
		for _, l := range lines {
			if strings.HasPrefix(l, " ") || strings.HasPrefix(l, "\t") || strings.HasPrefix(l, "- ") || strings.HasPrefix(l, "* ") {
				kept = true
			}
		}
		if !kept {
			lines = []string{strings.Join(lines, " ")}
		}
		for j, l := range lines {
			// a kept line's continuation is indented under it
			indent := l[:len(l)-len(strings.TrimLeft(l, " \t"))]
			if kept {
				indent += "    "
			} else {
				indent = ""
			}
			wrapped := strings.Split(ansi.Wordwrap(l, w-1-len(indent), ""), "\n")
			for k := 1; k < len(wrapped); k++ {
				wrapped[k] = indent + strings.TrimLeft(wrapped[k], " ")
			}
			lines[j] = strings.Join(wrapped, "\n")
		}
		paras[i] = strings.Join(lines, "\n")
	}
	return strings.Join(paras, "\n\n")
}
