package policy

import (
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// Field splitting on $IFS. Unquoted, $IFS (or ${IFS}) expands to the
// default separators, space, tab and newline, and bash splits the word
// there: `rm${IFS}-rf${IFS}~` is the words rm, -rf and ~, and
// `cat$IFS.env` is cat .env. When the line never sets IFS, its value is
// the default, so parseShell splits such words the way bash does and the
// walk judges the command bash runs rather than one dynamic word. A line
// that assigns IFS anywhere (`IFS=,; …`, `read` with IFS=) is left alone:
// its words stay dynamic and ask. A piece after the split is a word of its
// own, marked as made (like a brace expansion's) so its readers hold it to
// the stricter standard; a ~ that follows $IFS is read as a leading ~
// (bash leaves it literal, rm -rf './~'): the stricter reading.

// ifsOnlyExpanded reports whether every IFS in text is an expansion
// ($IFS, ${IFS}), so the line never sets it.
func ifsOnlyExpanded(text string) bool {
	n := strings.Count(text, "IFS")
	return n > 0 && n == strings.Count(text, "$IFS")+strings.Count(text, "${IFS}")
}

// splitIFS replaces, throughout n, the words of every simple command and
// `for … in` list that hold an unquoted plain $IFS with the fields bash
// makes of them, and returns the words it made.
func splitIFS(n syntax.Node) map[*syntax.Word]bool {
	var made map[*syntax.Word]bool
	fields := func(ws []*syntax.Word) []*syntax.Word {
		var out []*syntax.Word
		changed := false
		for i, w := range ws {
			parts, ok := ifsPieces(w)
			if !ok {
				if changed {
					out = append(out, w)
				}
				continue
			}
			if !changed {
				out = append(out, ws[:i]...)
				changed = true
			}
			for _, p := range parts {
				nw := &syntax.Word{Parts: p}
				if made == nil {
					made = map[*syntax.Word]bool{}
				}
				made[nw] = true
				out = append(out, nw)
			}
		}
		if !changed {
			return ws
		}
		return out
	}
	syntax.Walk(n, func(n syntax.Node) bool {
		switch x := n.(type) {
		case *syntax.CallExpr:
			x.Args = fields(x.Args)
		case *syntax.WordIter:
			x.Items = fields(x.Items)
		}
		return true
	})
	return made
}

// ifsPieces splits w's parts at its unquoted plain $IFS expansions; it
// reports false when w holds none.
func ifsPieces(w *syntax.Word) ([][]syntax.WordPart, bool) {
	var out [][]syntax.WordPart
	var cur []syntax.WordPart
	split := false
	for _, p := range w.Parts {
		if pe, ok := p.(*syntax.ParamExp); ok && plainIFS(pe) {
			split = true
			if len(cur) > 0 {
				out = append(out, cur)
			}
			cur = nil
			continue
		}
		cur = append(cur, p)
	}
	if !split {
		return nil, false
	}
	if len(cur) > 0 {
		out = append(out, cur)
	}
	return out, true
}

// plainIFS is $IFS or ${IFS} with no operator, index or length.
func plainIFS(pe *syntax.ParamExp) bool {
	return pe.Param != nil && pe.Param.Value == "IFS" && !pe.Excl && !pe.Length && !pe.Width &&
		pe.Index == nil && pe.Slice == nil && pe.Repl == nil && pe.Exp == nil && pe.Names == 0
}
