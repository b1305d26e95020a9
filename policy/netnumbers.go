package policy

// Network clients' options whose value is a number (a port, a count, a
// timeout, a database index): `ping -c 3 8.8.8.8`, `ssh -p 2222 host`,
// `redis-cli -p 6379 ping`, `psql -p 5432 -h localhost`. The number is no
// host written in decimal, so it must not reach the obfuscated-host check
// (which denies, and a deny is final). Only a value of decimal digits
// after the option written on its own is dropped; any other value, and
// every operand, is still judged as a host.

var (
	numOptsSSH     = wordSet{words: []string{"-p"}}
	numOptsSFTP    = wordSet{words: []string{"-P", "-B", "-R", "-l"}}
	numOptsPing    = wordSet{words: []string{"-c", "-i", "-W", "-w", "-s", "-t", "-l"}}
	numOptsTrace   = wordSet{words: []string{"-m", "-p", "-q", "-w", "-f", "-N", "-z"}}
	numOptsMtr     = wordSet{words: []string{"-c", "-i", "-m", "-P", "-s", "-f"}}
	numOptsDNS     = wordSet{words: []string{"-p", "-W", "-R"}}
	numOptsRedis   = wordSet{words: []string{"-p", "-n", "-r", "-i", "--port"}}
	numOptsPsql    = wordSet{words: []string{"-p", "--port"}}
	numOptsMysql   = wordSet{words: []string{"-P", "--port", "--connect-timeout"}}
	numOptsMongo   = wordSet{words: []string{"--port"}}
	numOptsNmap    = wordSet{words: []string{"-p", "--top-ports", "--max-retries", "--min-rate", "--max-rate"}}
	numOptsWhois   = wordSet{words: []string{"-p"}}
	numOptsGrpcurl = wordSet{words: []string{"-max-time", "-connect-timeout", "-max-msg-sz"}}
)

func numericNetOpts(name string) *wordSet {
	switch name {
	case "ssh", "mosh":
		return &numOptsSSH
	case "sftp":
		return &numOptsSFTP
	case "ping", "ping6":
		return &numOptsPing
	case "traceroute":
		return &numOptsTrace
	case "mtr":
		return &numOptsMtr
	case "dig", "host":
		return &numOptsDNS
	case "redis-cli", "valkey-cli":
		return &numOptsRedis
	case "psql":
		return &numOptsPsql
	case "mysql", "mariadb":
		return &numOptsMysql
	case "mongo", "mongosh":
		return &numOptsMongo
	case "nmap":
		return &numOptsNmap
	case "whois":
		return &numOptsWhois
	case "grpcurl":
		return &numOptsGrpcurl
	}
	return nil
}

// withoutOptionNumbers is args without the decimal values of name's
// numeric options (ping -c 3: the 3).
func withoutOptionNumbers(name string, args []word) []word {
	opts := numericNetOpts(name)
	if opts == nil {
		return args
	}
	out := make([]word, 0, len(args))
	for i := 0; i < len(args); i++ {
		out = append(out, args[i])
		if opts.has(args[i].val) && i+1 < len(args) && args[i+1].static && isDigits(args[i+1].val) {
			i++
		}
	}
	return out
}
