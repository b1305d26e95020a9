package policy

// sameOnOff is one row a line, each decided want with the sandbox on and
// off.
func sameOnOff(want Decision, cmds ...string) []onOff {
	rows := make([]onOff, len(cmds))
	for i, c := range cmds {
		rows[i] = onOff{c, want, want}
	}
	return rows
}
