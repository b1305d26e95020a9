package policy

// chown and chgrp: changing who owns a file inside the workspace asks (the
// sandbox's user owns it all anyway); changing it outside the workspace —
// the person's home, the system, / — is destruction the workspace review
// never shows, denied as chmod -R 777 / is.

func ownershipCmd(prev handler) handler {
	return func(x *cmdCtx, args []word) {
		ops := operands(args[1:], "", []string{"reference", "from"})
		if len(ops) > 1 {
			for _, w := range ops[1:] { // the first operand is the owner
				for _, p := range x.resolve(w) {
					if !within(p, x.c.ws) {
						x.add(Deny, RuleSystem, args[0].val+" changes the owner of "+x.c.show(p)+", outside the workspace")
						return
					}
				}
			}
		}
		prev(x, args)
	}
}

func addOwnershipHandlers(handlers map[string]handler) {
	for _, n := range []string{"chown", "chgrp"} {
		if h, ok := handlers[n]; ok {
			handlers[n] = ownershipCmd(h)
		}
	}
}
