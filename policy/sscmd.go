package policy

import "strings"

// ssCmd allows ss listing sockets (ss -ltnp | grep 8080, ss -s, ss -tan
// state listening sport = :8080): it prints and changes nothing. -K
// (kill sockets), -D (dump to a file), -F (read a filter from a file) and
// -N (another network namespace) ask.
func ssCmd(x *cmdCtx, args []word) {
	for _, w := range args[1:] {
		v := w.val
		switch {
		case !w.static:
		case strings.HasPrefix(v, "--"):
			if ssLongOptions.has(v) {
				continue
			}
		case strings.HasPrefix(v, "-"):
			if len(v) > 1 && strings.Trim(v[1:], "tulpnaxeomriHs46wA0Ebv") == "" {
				continue
			}
		case strings.Trim(v, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789:=()!.[]*-") == "":
			continue // a filter: state listening, sport = :8080
		}
		x.add(Ask, RuleUnknownCommand, "ss "+quoteShort(v)+" is an option the policy does not know")
		return
	}
	x.add(Allow, RuleReadOnly, "ss lists sockets")
}

var ssLongOptions = wordSet{words: []string{"--tcp", "--udp", "--listening", "--numeric", "--processes", "--all", "--summary",
	"--info", "--extended", "--memory", "--options", "--resolve", "--ipv4", "--ipv6", "--unix", "--raw", "--no-header", "--oneline"}}
