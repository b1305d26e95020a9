package policy

import "strings"

// pgrepCmd allows pgrep listing the processes that match a pattern
// (pgrep -af 'manage.py runserver', pgrep -x node -u root -l): it prints
// process ids and command lines, as ps aux | grep does, and changes
// nothing. Its options that take a value take users, groups, ids,
// terminals or a delimiter; -F (a pid file it reads), --signal and any
// other option ask. pkill is not pgrep.
func pgrepCmd(x *cmdCtx, args []word) {
	rest := args[1:]
	for i := 0; i < len(rest); i++ {
		w := rest[i]
		v := w.val
		switch {
		case !w.static || !strings.HasPrefix(v, "-") || v == "--":
			continue // a pattern
		case pgrepLongOptions.has(v):
			continue
		case len(v) == 2 && strings.ContainsRune("uUgGPstd", rune(v[1])):
			i++ // the option's value: a user, group, id, terminal or delimiter
			continue
		case !strings.HasPrefix(v, "--") && strings.Trim(v[1:], "aflvxncoirAw") == "":
			continue
		}
		x.add(Ask, RuleUnknownCommand, "pgrep "+quoteShort(v)+" is an option the policy does not know")
		return
	}
	x.add(Allow, RuleReadOnly, "pgrep lists processes")
}

var pgrepLongOptions = wordSet{words: []string{"--full", "--list-name", "--list-full", "--exact", "--newest",
	"--oldest", "--count", "--inverse", "--ignore-case", "--lightweight"}}

// netstatCmd allows netstat listing sockets, routes and counters
// (netstat -tlnp | grep 5432, netstat -an, netstat -s), as ss does
// (sscmd.go). -c/--continuous (it never ends) and any option it does not
// know ask.
func netstatCmd(x *cmdCtx, args []word) {
	for _, w := range args[1:] {
		v := w.val
		switch {
		case w.static && netstatLongOptions.has(v):
			continue
		case w.static && len(v) > 1 && v[0] == '-' && v[1] != '-' && strings.Trim(v[1:], "tulpnaeWrsiogvxw46TZ") == "":
			continue
		}
		x.add(Ask, RuleUnknownCommand, "netstat "+quoteShort(v)+" is an option the policy does not know")
		return
	}
	x.add(Allow, RuleReadOnly, "netstat lists sockets")
}

var netstatLongOptions = wordSet{words: []string{"--tcp", "--udp", "--listening", "--numeric", "--program", "--all",
	"--statistics", "--route", "--interfaces", "--extend", "--timers", "--wide", "--verbose", "--raw", "--unix"}}
