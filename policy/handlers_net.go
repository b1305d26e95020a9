package policy

import (
	"net/url"
	"strings"
)

// Network tools, publishing, persistence and system administration.

// addNetHandlers registers network tools, publishing, persistence and
// system administration.
func addNetHandlers(handlers map[string]handler) {
	for _, n := range []string{"curl", "wget", "http", "https", "xh", "aria2c", "lynx", "links", "w3m", "httpie", "curlie"} {
		handlers[n] = fetchCmd
	}
	for _, n := range []string{"nc", "ncat", "netcat", "socat", "telnet", "ftp", "sftp", "tftp", "ssh", "mosh",
		"dig", "nslookup", "host", "whois", "ping", "ping6", "traceroute", "mtr", "nmap", "openssl", "ngrok",
		"cloudflared", "tailscale", "websocat", "grpcurl", "redis-cli", "psql", "mysql", "mongo", "mongosh"} {
		handlers[n] = netCmd
	}
	handlers["scp"] = scpCmd
	handlers["rsync"] = rsyncCmd
	for _, n := range []string{"crontab", "at", "batch", "launchctl", "loginctl", "update-rc.d", "chkconfig", "systemctl", "service", "schtasks", "atd", "anacron"} {
		handlers[n] = persistCmd
	}
	for _, n := range []string{"shutdown", "reboot", "halt", "poweroff", "init", "telinit", "fdisk", "sfdisk", "parted",
		"wipefs", "mkswap", "swapon", "swapoff", "cryptsetup", "losetup", "insmod", "rmmod", "modprobe", "sysctl",
		"iptables", "ip6tables", "nft", "ufw", "ifconfig", "route", "useradd", "userdel", "usermod", "passwd",
		"chpasswd", "groupadd", "visudo", "setenforce", "dmsetup", "mdadm", "lvremove", "vgremove", "pvremove", "kexec", "debugfs"} {
		handlers[n] = func(x *cmdCtx, a []word) { x.add(Deny, RuleSystem, a[0].val+" changes the machine itself") }
	}
	for _, n := range []string{"docker", "podman", "kubectl", "helm", "terraform", "tofu", "pulumi", "aws", "gcloud", "gsutil", "az",
		"doctl", "flyctl", "fly", "heroku", "vercel", "netlify", "firebase", "wrangler", "serverless", "sls", "gh", "glab",
		"ansible", "ansible-playbook", "twine", "gem", "apt", "apt-get", "yum", "dnf", "brew", "apk", "pacman", "snap", "flatpak", "nix", "nix-env", "conda", "mamba", "terragrunt", "sst"} {
		handlers[n] = remoteTool
	}
	for _, n := range []string{"conda", "mamba", "micromamba"} {
		handlers[n] = func(x *cmdCtx, a []word) {
			if !condaEnvCmd(x, a) { // condarun.go: conda run -n ENV pytest is pytest
				remoteTool(x, a)
			}
		}
	}
}

// hostOf extracts a host from a URL-ish argument ("" when it has none).
func hostOf(arg string) string {
	s := arg
	if !strings.Contains(s, "://") {
		if strings.HasPrefix(s, "-") || strings.HasPrefix(s, "@") {
			return ""
		}
		s = "http://" + s
	}
	u, err := url.Parse(s)
	if err != nil {
		return ""
	}
	return u.Hostname()
}

func (x *cmdCtx) netHosts(args []word) {
	x.c.never = true
	for _, w := range args {
		if strings.HasPrefix(w.val, "-") {
			continue
		}
		if h := hostOf(w.val); h != "" && strings.ContainsAny(h, ".:") || h == "localhost" || isDigits(h) || strings.HasPrefix(h, "0x") {
			f := hostFinding(h)
			if f.d == Deny {
				x.addF(f)
			}
		}
	}
}

func fetchCmd(x *cmdCtx, args []word) {
	name := args[0].val
	x.add(Ask, RuleNetTool, name+" talks to the network; new hosts need a person")
	x.netHosts(fetchOperands(name, args[1:])) // loopback.go: wget -T 5's 5 is a timeout
	rest := args[1:]
	for i := 0; i < len(rest); i++ {
		a := rest[i].val
		opt, val, has := strings.Cut(a, "=")
		next := func() string {
			if has {
				return val
			}
			if i+1 < len(rest) {
				i++
				return rest[i].val
			}
			return ""
		}
		if name == "wget" && !has {
			// wget's letters are not curl's: -d -F -K are flags (debug,
			// force-html, backup-converted), -T -D -t -n take a value
			// (timeout, domains, tries, -nv/-nc/-nd/-nH/-np).
			switch opt {
			case "-d", "-F", "-K":
				continue
			case "-T", "-D", "-t", "-n":
				next()
				continue
			}
		}
		switch opt {
		case "-d", "--data", "--data-binary", "--data-raw", "--data-ascii", "--data-urlencode", "--json", "-F", "--form", "--form-string":
			v := next()
			if dataReadsFile(name, opt, v) { // curldata.go
				x.add(Deny, RuleNetExfil, name+" "+opt+" sends a local file")
			} else {
				x.add(Ask, RuleNetExfil, name+" "+opt+" sends data")
			}
		case "-T", "--upload-file", "--post-file", "--body-file":
			next()
			x.add(Deny, RuleNetExfil, name+" "+opt+" uploads a local file")
		case "-o", "--output", "--output-document", "-D", "--dump-header", "-c", "--cookie-jar", "--trace", "--trace-ascii", "--stderr", "--output-file", "-a", "--append-output", "--hsts", "--alt-svc", "--etag-save", "--libcurl":
			if name == "wget" && opt == "-c" {
				continue
			}
			v := next()
			x.writeStr(v)
		case "-P", "--directory-prefix", "--output-dir":
			x.writeStr(next() + "/glob-match")
		case "-K", "--config", "-e", "--execute", "-i", "--input-file", "--netrc-file", "--use-askpass", "--engine":
			next()
			x.add(Ask, RuleNetTool, name+" "+opt+" reads options or credentials the request does not show")
		case "-n", "--netrc", "--netrc-optional":
			x.add(Deny, RulePathCredential, name+" "+opt+" sends the person's ~/.netrc credentials")
		}
		if name == "wget" && strings.HasPrefix(a, "-O") && len(a) > 2 && !strings.HasPrefix(a, "--") {
			x.writeStr(a[2:])
		}
		if name == "wget" && a == "-O" && i+1 < len(rest) {
			i++
			x.write(rest[i])
		}
	}
	x.noteFetched(name, args) // fetchedrun.go
}

func netCmd(x *cmdCtx, args []word) {
	name := args[0].val
	if name == "openssl" {
		if ops := operands(args[1:], "", nil); len(ops) > 0 && ops[0].val != "s_client" && ops[0].val != "s_server" {
			x.add(Ask, RuleUnknownCommand, "openssl "+ops[0].val+" is not judged in detail")
			for i, w := range args {
				if (w.val == "-out" || w.val == "-keyout") && i+1 < len(args) {
					x.write(args[i+1])
				}
				if w.val == "-in" && i+1 < len(args) {
					x.read(args[i+1])
				}
			}
			return
		}
	}
	x.add(Ask, RuleNetTool, name+" talks to the network; new hosts need a person")
	x.netHosts(withoutOptionNumbers(name, portOperands(name, args[1:]))) // loopback.go: nc HOST 5432's port is no host; netnumbers.go: ping -c 3's 3
	for i, w := range args[1:] {
		v := w.val
		switch {
		case (name == "nc" || name == "ncat" || name == "netcat") && (v == "-e" || v == "-c" || v == "--exec" || v == "--sh-exec" || v == "--lua-exec" || strings.HasPrefix(v, "-e")):
			x.add(Deny, RuleToolExec, name+" "+v+" runs a program for the connection")
		case name == "socat" && (strings.Contains(strings.ToUpper(v), "EXEC:") || strings.Contains(strings.ToUpper(v), "SYSTEM:")):
			x.add(Deny, RuleToolExec, "socat EXEC/SYSTEM runs a program for the connection")
		case (name == "ssh" || name == "sftp") && (v == "-o" && i+2 < len(args)):
			o := strings.ToLower(args[i+2].val)
			if strings.Contains(o, "proxycommand") || strings.Contains(o, "localcommand") || strings.Contains(o, "permitlocalcommand") || strings.Contains(o, "knownhostscommand") {
				x.add(Deny, RuleToolExec, "ssh -o "+args[i+2].val+" runs a local program")
			}
		case name == "ssh" && (strings.HasPrefix(strings.ToLower(v), "-oproxycommand") || strings.HasPrefix(strings.ToLower(v), "-olocalcommand")):
			x.add(Deny, RuleToolExec, "ssh "+v+" runs a local program")
		case name == "ssh" && (v == "-R" || v == "-D" || v == "-L" || v == "-w"):
			x.add(Deny, RuleNetExfil, "ssh "+v+" opens a tunnel")
		}
	}
}

func isRemoteSpec(v string) bool {
	if strings.Contains(v, "://") {
		return true
	}
	i := strings.IndexByte(v, ':')
	if i <= 0 {
		return false
	}
	s := strings.IndexByte(v, '/')
	return s < 0 || i < s
}

func scpCmd(x *cmdCtx, args []word) {
	x.add(Ask, RuleNetTool, "scp copies over the network")
	x.c.never = true
	ops := operands(args[1:], "cFiJloPS", nil)
	for i, w := range args[1:] {
		if (w.val == "-S" || w.val == "-o") && i+2 < len(args) {
			x.add(Deny, RuleToolExec, "scp "+w.val+" can run a local program")
		}
	}
	if len(ops) < 2 {
		return
	}
	dest := ops[len(ops)-1]
	if isRemoteSpec(dest.val) {
		x.add(Deny, RuleNetExfil, "scp uploads local files to "+quoteShort(dest.val))
		return
	}
	x.write(dest)
}

func rsyncCmd(x *cmdCtx, args []word) {
	x.add(Allow, RuleFileWrite, "copies files inside the workspace")
	for _, w := range args[1:] {
		for _, bad := range []string{"-e", "--rsh", "--rsync-path", "--config", "--early-input", "--password-file"} {
			if w.val == bad || strings.HasPrefix(w.val, bad+"=") || (bad == "-e" && strings.HasPrefix(w.val, "-e") && !strings.HasPrefix(w.val, "--")) {
				x.add(Deny, RuleToolExec, "rsync "+bad+" runs a program or reads credentials")
				return
			}
		}
		if strings.HasPrefix(w.val, "--log-file=") || strings.HasPrefix(w.val, "--write-batch=") || strings.HasPrefix(w.val, "--backup-dir=") || strings.HasPrefix(w.val, "--temp-dir=") || strings.HasPrefix(w.val, "--partial-dir=") {
			_, v, _ := strings.Cut(w.val, "=")
			x.writeStr(v + "/glob-match")
		}
		if strings.HasPrefix(w.val, "--files-from") {
			x.add(Ask, RulePathUnknown, "rsync reads the names of the files to copy from a file")
		}
		if strings.HasPrefix(w.val, "--files-from=") || strings.HasPrefix(w.val, "--exclude-from=") || strings.HasPrefix(w.val, "--include-from=") || strings.HasPrefix(w.val, "--read-batch=") {
			_, v, _ := strings.Cut(w.val, "=")
			x.readStr(v)
		}
	}
	ops := operands(args[1:], "fBTM", []string{"filter", "exclude", "include", "port", "bwlimit", "timeout", "chmod", "chown", "usermap", "groupmap", "max-size", "min-size", "max-delete", "compare-dest", "copy-dest", "link-dest", "suffix", "out-format", "log-file-format", "info", "debug", "modify-window", "block-size", "checksum-choice", "compress-choice", "compress-level", "skip-compress", "iconv", "sockopts", "outbuf", "stop-after", "stop-at", "contimeout", "address", "protocol", "max-alloc"})
	if len(ops) < 2 {
		x.add(Ask, RuleUnknownCommand, "an rsync form the policy does not know")
		return
	}
	dest := ops[len(ops)-1]
	for _, o := range ops {
		if isRemoteSpec(o.val) {
			x.c.never = true
			if isRemoteSpec(dest.val) {
				x.add(Deny, RuleNetExfil, "rsync uploads local files to "+quoteShort(dest.val))
				return
			}
			x.add(Ask, RuleNetTool, "rsync copies from the network")
		}
	}
	for _, o := range ops[:len(ops)-1] {
		if !isRemoteSpec(o.val) {
			x.read(o)
		}
	}
	x.write(word{val: dest.val + "/glob-match", static: dest.static})
	x.write(dest)
	x.rsyncDiscards(args[1:]) // rsyncdelete.go
	var srcs []word
	for _, o := range ops[:len(ops)-1] {
		if !isRemoteSpec(o.val) {
			srcs = append(srcs, o)
		}
	}
	recurse := recursiveCopy(args[1:])
	if recurse {
		x.writeTree(dest, "copies") // pol7_trees.go
	}
	x.writeInto(dest, srcs, recurse)
}

func persistCmd(x *cmdCtx, args []word) {
	name := args[0].val
	if name == "systemctl" || name == "service" || name == "launchctl" {
		for _, w := range args[1:] {
			switch w.val {
			case "status", "show", "list-units", "list-unit-files", "is-active", "is-enabled", "is-failed", "cat", "list-timers", "list", "print", "--version":
				x.add(Ask, RulePersist, name+" "+w.val+" inspects services")
				return
			}
		}
	}
	if name == "crontab" && len(args) == 2 && args[1].val == "-l" {
		x.add(Ask, RulePersist, "crontab -l lists scheduled jobs")
		return
	}
	x.add(Deny, RulePersist, name+" schedules or installs something that runs later, outside the run")
}

// remoteTool covers CLIs that talk to remote infrastructure: publishing
// and deploying forms are denied by prefixRules; the rest asks.
func remoteTool(x *cmdCtx, args []word) {
	if !x.set || x.f.d < Ask {
		x.add(Ask, RuleNetTool, args[0].val+" talks to remote services")
	}
	x.c.never = true
	name := args[0].val
	if verb := cloudDeletion(args); verb != "" { // cloudwipe.go
		x.add(Deny, RuleDestructive, name+" "+verb+" deletes remote infrastructure or data that nothing here can restore")
	}
	if verb := cloudDataReset(args); verb != "" { // cloudresets.go
		x.add(Deny, RuleDestructive, name+" "+verb+" overwrites a hosted database's data, which nothing here can restore")
	}
	if name == "docker" || name == "podman" {
		for i, w := range args[1:] {
			v := w.val
			if v == "--privileged" || strings.HasPrefix(v, "--pid=host") || strings.HasPrefix(v, "--net=host") || strings.HasPrefix(v, "--network=host") ||
				strings.HasPrefix(v, "--cap-add") || strings.HasPrefix(v, "--security-opt") || strings.HasPrefix(v, "--device") || strings.HasPrefix(v, "--userns=host") {
				x.add(Deny, RuleSystem, name+" "+v+" gives a container the host")
			}
			if (v == "-v" || v == "--volume" || v == "--mount") && i+2 < len(args) {
				src, _, _ := strings.Cut(args[i+2].val, ":")
				src = strings.TrimPrefix(src, "type=bind,source=")
				if strings.HasPrefix(src, "/") || strings.HasPrefix(src, "~") {
					x.readStr(src)
					x.writeStr(src)
				}
			}
		}
	}
	if name == "gh" || name == "glab" {
		for _, w := range args[1:] {
			if w.val == "-X" || w.val == "--method" || w.val == "-f" || w.val == "-F" || w.val == "--field" || w.val == "--raw-field" || w.val == "--input" {
				x.add(Deny, RuleNetExfil, name+" api with a body or method sends data out")
			}
		}
	}
}

// prefixRules are data: built-in decisions for argv token sequences. A rule
// matches when its tokens appear in order in the argv (not necessarily next
// to each other), which is stricter than a prefix and so safe for denies.
var prefixRules = []Rule{
	{ID: "publish.npm", Decision: Deny, Argv: []string{"npm", "publish"}, Reason: "publishes a package", Match: []string{"npm publish", "npm --tag beta publish"}},
	{ID: "publish.yarn", Decision: Deny, Argv: []string{"yarn", "publish"}, Reason: "publishes a package", Match: []string{"yarn publish"}},
	{ID: "publish.pnpm", Decision: Deny, Argv: []string{"pnpm", "publish"}, Reason: "publishes a package", Match: []string{"pnpm publish"}},
	{ID: "publish.cargo", Decision: Deny, Argv: []string{"cargo", "publish"}, Reason: "publishes a crate", Match: []string{"cargo publish"}},
	{ID: "publish.twine", Decision: Deny, Argv: []string{"twine", "upload"}, Reason: "publishes a Python package", Match: []string{"twine upload dist/*"}},
	{ID: "publish.gem", Decision: Deny, Argv: []string{"gem", "push"}, Reason: "publishes a gem", Match: []string{"gem push x.gem"}},
	{ID: "publish.docker-push", Decision: Deny, Argv: []string{"docker", "push"}, Reason: "pushes an image", Match: []string{"docker push img", "docker image push img"}},
	{ID: "publish.docker-login", Decision: Deny, Argv: []string{"docker", "login"}, Reason: "logs in to a registry", Match: []string{"docker login"}},
	{ID: "publish.podman-push", Decision: Deny, Argv: []string{"podman", "push"}, Reason: "pushes an image", Match: []string{"podman push img"}},
	{ID: "publish.terraform-apply", Decision: Deny, Argv: []string{"terraform", "apply"}, Reason: "changes real infrastructure", Match: []string{"terraform apply", "terraform -chdir=x apply -auto-approve"}},
	{ID: "publish.terraform-destroy", Decision: Deny, Argv: []string{"terraform", "destroy"}, Reason: "destroys real infrastructure", Match: []string{"terraform destroy"}},
	{ID: "publish.terraform-import", Decision: Deny, Argv: []string{"terraform", "import"}, Reason: "changes infrastructure state", Match: []string{"terraform import a b"}},
	{ID: "publish.terraform-state", Decision: Deny, Argv: []string{"terraform", "state", "rm"}, Reason: "changes infrastructure state", Match: []string{"terraform state rm x"}},
	{ID: "publish.terraform-state-mv", Decision: Deny, Argv: []string{"terraform", "state", "mv"}, Reason: "changes infrastructure state", Match: []string{"terraform state mv a b"}},
	{ID: "publish.terraform-state-push", Decision: Deny, Argv: []string{"terraform", "state", "push"}, Reason: "changes infrastructure state", Match: []string{"terraform state push x.tfstate"}},
	{ID: "publish.terraform-state-provider", Decision: Deny, Argv: []string{"terraform", "state", "replace-provider"}, Reason: "changes infrastructure state", Match: []string{"terraform state replace-provider a b"}},
	{ID: "publish.terraform-workspace-delete", Decision: Deny, Argv: []string{"terraform", "workspace", "delete"}, Reason: "deletes a workspace's infrastructure state", Match: []string{"terraform workspace delete -force prod"}},
	{ID: "publish.tofu-workspace-delete", Decision: Deny, Argv: []string{"tofu", "workspace", "delete"}, Reason: "deletes a workspace's infrastructure state", Match: []string{"tofu workspace delete dev"}},
	{ID: "publish.cdk-destroy", Decision: Deny, Argv: []string{"cdk", "destroy"}, Reason: "destroys real infrastructure", Match: []string{"cdk destroy --force"}},
	{ID: "publish.cdktf-destroy", Decision: Deny, Argv: []string{"cdktf", "destroy"}, Reason: "destroys real infrastructure", Match: []string{"cdktf destroy --auto-approve"}},
	{ID: "publish.tofu-apply", Decision: Deny, Argv: []string{"tofu", "apply"}, Reason: "changes real infrastructure", Match: []string{"tofu apply"}},
	{ID: "publish.tofu-destroy", Decision: Deny, Argv: []string{"tofu", "destroy"}, Reason: "destroys real infrastructure", Match: []string{"tofu destroy"}},
	{ID: "publish.pulumi-up", Decision: Deny, Argv: []string{"pulumi", "up"}, Reason: "changes real infrastructure", Match: []string{"pulumi up"}},
	{ID: "publish.pulumi-destroy", Decision: Deny, Argv: []string{"pulumi", "destroy"}, Reason: "destroys real infrastructure", Match: []string{"pulumi destroy"}},
	{ID: "publish.pulumi-down", Decision: Deny, Argv: []string{"pulumi", "down"}, Reason: "destroys real infrastructure (pulumi destroy's alias)", Match: []string{"pulumi down --yes"}},
	{ID: "publish.pulumi-dn", Decision: Deny, Argv: []string{"pulumi", "dn"}, Reason: "destroys real infrastructure (pulumi destroy's alias)", Match: []string{"pulumi dn -y"}},
	{ID: "publish.pulumi-stack-rm", Decision: Deny, Argv: []string{"pulumi", "stack", "rm"}, Reason: "deletes a stack's infrastructure state", Match: []string{"pulumi stack rm dev --force --yes"}},
	{ID: "secret.kubectl-get-secret", Decision: Deny, Argv: []string{"kubectl", "get", "secret"}, Reason: "reads a cluster's secret values", Match: []string{"kubectl get secret db -o yaml"}},
	{ID: "secret.kubectl-get-secrets", Decision: Deny, Argv: []string{"kubectl", "get", "secrets"}, Reason: "reads a cluster's secret values", Match: []string{"kubectl get secrets -o json"}},
	{ID: "publish.kubectl-apply", Decision: Deny, Argv: []string{"kubectl", "apply"}, Reason: "changes a cluster", Match: []string{"kubectl apply -f x.yaml"}},
	{ID: "publish.kubectl-delete", Decision: Deny, Argv: []string{"kubectl", "delete"}, Reason: "changes a cluster", Match: []string{"kubectl delete pod x"}},
	{ID: "publish.kubectl-create", Decision: Deny, Argv: []string{"kubectl", "create"}, Reason: "changes a cluster", Match: []string{"kubectl create ns x"}},
	{ID: "publish.kubectl-exec", Decision: Deny, Argv: []string{"kubectl", "exec"}, Reason: "runs commands in a cluster", Match: []string{"kubectl exec -it x -- sh"}},
	{ID: "publish.kubectl-patch", Decision: Deny, Argv: []string{"kubectl", "patch"}, Reason: "changes a cluster", Match: []string{"kubectl patch x"}},
	{ID: "publish.kubectl-replace", Decision: Deny, Argv: []string{"kubectl", "replace"}, Reason: "changes a cluster", Match: []string{"kubectl replace -f x"}},
	{ID: "publish.kubectl-scale", Decision: Deny, Argv: []string{"kubectl", "scale"}, Reason: "changes a cluster", Match: []string{"kubectl scale deploy x --replicas=0"}},
	{ID: "publish.helm-install", Decision: Deny, Argv: []string{"helm", "install"}, Reason: "changes a cluster", Match: []string{"helm install x y"}},
	{ID: "publish.helm-upgrade", Decision: Deny, Argv: []string{"helm", "upgrade"}, Reason: "changes a cluster", Match: []string{"helm upgrade x y"}},
	{ID: "publish.helm-uninstall", Decision: Deny, Argv: []string{"helm", "uninstall"}, Reason: "changes a cluster", Match: []string{"helm uninstall x"}},
	{ID: "publish.aws-s3-cp", Decision: Deny, Argv: []string{"aws", "s3", "cp"}, Reason: "copies data to or from cloud storage", Match: []string{"aws s3 cp x s3://b/"}},
	{ID: "publish.aws-s3-sync", Decision: Deny, Argv: []string{"aws", "s3", "sync"}, Reason: "copies data to or from cloud storage", Match: []string{"aws s3 sync . s3://b/"}},
	{ID: "publish.aws-s3-rm", Decision: Deny, Argv: []string{"aws", "s3", "rm"}, Reason: "deletes cloud storage", Match: []string{"aws s3 rm s3://b/x"}},
	{ID: "publish.gsutil-cp", Decision: Deny, Argv: []string{"gsutil", "cp"}, Reason: "copies data to cloud storage", Match: []string{"gsutil cp x gs://b"}},
	{ID: "publish.gcloud-deploy", Decision: Deny, Argv: []string{"gcloud", "deploy"}, Reason: "deploys", Match: []string{"gcloud app deploy"}},
	{ID: "publish.vercel", Decision: Deny, Argv: []string{"vercel", "deploy"}, Reason: "deploys", Match: []string{"vercel deploy --prod"}},
	{ID: "publish.vercel-prod", Decision: Deny, Argv: []string{"vercel", "--prod"}, Reason: "deploys", Match: []string{"vercel --prod"}},
	{ID: "publish.netlify", Decision: Deny, Argv: []string{"netlify", "deploy"}, Reason: "deploys", Match: []string{"netlify deploy --prod"}},
	{ID: "publish.fly", Decision: Deny, Argv: []string{"flyctl", "deploy"}, Reason: "deploys", Match: []string{"flyctl deploy"}},
	{ID: "publish.fly-short", Decision: Deny, Argv: []string{"fly", "deploy"}, Reason: "deploys", Match: []string{"fly deploy"}},
	{ID: "publish.firebase", Decision: Deny, Argv: []string{"firebase", "deploy"}, Reason: "deploys", Match: []string{"firebase deploy"}},
	{ID: "publish.wrangler-deploy", Decision: Deny, Argv: []string{"wrangler", "deploy"}, Reason: "deploys", Match: []string{"wrangler deploy"}},
	{ID: "publish.wrangler-publish", Decision: Deny, Argv: []string{"wrangler", "publish"}, Reason: "deploys", Match: []string{"wrangler publish"}},
	{ID: "publish.serverless", Decision: Deny, Argv: []string{"serverless", "deploy"}, Reason: "deploys", Match: []string{"serverless deploy"}},
	{ID: "publish.sls", Decision: Deny, Argv: []string{"sls", "deploy"}, Reason: "deploys", Match: []string{"sls deploy"}},
	{ID: "publish.heroku", Decision: Deny, Argv: []string{"heroku", "git:remote"}, Reason: "deploys", Match: []string{"heroku git:remote -a x"}},
	// gh release view/list/download read (remotereads.go); these write.
	{ID: "publish.gh-release", Decision: Deny, Argv: []string{"gh", "release", "create"}, Reason: "publishes a release", Match: []string{"gh release create v1"}, NotMatch: []string{"gh release view v1", "gh release list"}},
	{ID: "publish.gh-release-upload", Decision: Deny, Argv: []string{"gh", "release", "upload"}, Reason: "uploads files to a release", Match: []string{"gh release upload v1 dist/a.tgz"}},
	{ID: "publish.gh-release-edit", Decision: Deny, Argv: []string{"gh", "release", "edit"}, Reason: "changes a published release", Match: []string{"gh release edit v1 --draft=false"}},
	{ID: "publish.gh-release-delete", Decision: Deny, Argv: []string{"gh", "release", "delete"}, Reason: "deletes a release", Match: []string{"gh release delete v1 -y"}},
	{ID: "publish.gh-release-delete-asset", Decision: Deny, Argv: []string{"gh", "release", "delete-asset"}, Reason: "deletes a release's files", Match: []string{"gh release delete-asset v1 a.tgz"}},
	{ID: "publish.gh-gist", Decision: Deny, Argv: []string{"gh", "gist", "create"}, Reason: "uploads files to a gist", Match: []string{"gh gist create .env"}},
	{ID: "publish.gh-repo-delete", Decision: Deny, Argv: []string{"gh", "repo", "delete"}, Reason: "deletes a repository", Match: []string{"gh repo delete x"}},
	{ID: "publish.gh-secret", Decision: Deny, Argv: []string{"gh", "secret"}, Reason: "changes repository secrets", Match: []string{"gh secret set X"}},
	{ID: "publish.gh-auth", Decision: Deny, Argv: []string{"gh", "auth"}, Reason: "reads or changes GitHub credentials", Match: []string{"gh auth token"}},
	{ID: "publish.gh-pr-merge", Decision: Deny, Argv: []string{"gh", "pr", "merge"}, Reason: "merges into a shared branch", Match: []string{"gh pr merge 1"}},
	{ID: "publish.mvn-deploy", Decision: Deny, Argv: []string{"mvn", "deploy"}, Reason: "publishes artifacts", Match: []string{"mvn deploy"}},
	{ID: "publish.gradle-publish", Decision: Deny, Argv: []string{"gradle", "publish"}, Reason: "publishes artifacts", Match: []string{"gradle publish"}},
	{ID: "publish.ansible", Decision: Deny, Argv: []string{"ansible-playbook"}, Reason: "changes remote machines", Match: []string{"ansible-playbook site.yml"}},
}
