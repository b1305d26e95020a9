package policy

import "strings"

// Container inspections inside the sandbox (issue 32, polcorp7
// everyday/docker), and a build that pushes is publishing.
//
// What the sandbox does with the container daemon today: its root is a
// fresh read-only tmpfs showing only the system locations (/usr, /etc,
// /lib…, never /var/run or /run), the profile's paths and a private /tmp
// and /dev, so /var/run/docker.sock and $XDG_RUNTIME_DIR/podman are not
// there; its network namespace has only its own loopback (a
// DOCKER_HOST=tcp://… reaches nothing but Sentinel's proxy, which lets
// only allowed hosts through); seccomp refuses new namespaces (rootless
// podman). So inside the sandbox the docker CLI reaches no daemon, and
// `docker inspect` (image, container, volume, network inspect), which
// only prints what a daemon knows, fails harmlessly there: allowed
// (RuleContainerSandboxed). With the sandbox off or in place the daemon
// is the person's own and inspect prints containers' environments: asked.
//
// Decision for the rest of the docker and podman CLI (issue 32 item 4,
// polcorp7/polcorp8 everyday/docker), by what each form does:
//
//   - listings that print what a daemon knows and change nothing (ps,
//     images, image ls/history, volume ls, network ls, version, info,
//     stats, buildx ls, context ls, compose ps/ls/top/images/logs, and
//     compose's -f FILE/-p NAME before the verb, composeVerbFirst): allowed
//     in every mode (buildverbs.go, everyday.go). Inside the sandbox they
//     reach no daemon and fail harmlessly; with it off they print
//     container names and states of the person's own daemon, which
//     docker ps already did. compose config, which fills in .env values,
//     and inspect, which prints containers' environments, are judged
//     apart (secretprinters.go; inspect below).
//   - builds (docker build, buildx build --load, compose build) keep
//     asking in every mode: a build runs the Dockerfile's RUN steps in a
//     daemon outside any sandbox, as root, with the network; three of the
//     project's independent corpora (polcorp8 container, polcorp1206,
//     heldout2) hold it so. Inside the sandbox no daemon is reachable, so
//     allowing it there buys nothing (it cannot succeed) while the line
//     does not show that no remote builder or DOCKER_HOST is configured.
//   - what starts or changes containers (run, compose up/run/exec/down,
//     rm, stop) asks as before: it runs code in the daemon, not in the
//     sandbox; what deletes their data is denied (containerwipe.go). `docker build --push`, `buildx build
// --push`, `compose build --push`, an --output of type=registry or
// push=true, and --cache-to publish: denied in every mode, as docker push
// is.

// RuleContainerSandboxed allows a container inspection inside the
// sandbox, where no daemon is reachable.
const RuleContainerSandboxed = "container.sandboxed"

const containerSandboxedWhy = ": inside the sandbox no container daemon is reachable (no host socket is mounted and the network is the sandbox's own loopback), so it prints nothing of the person's and fails harmlessly"

// containerBuild wraps docker's and podman's handlers.
func containerBuild(prev handler) handler {
	return func(x *cmdCtx, args []word) {
		form, opts, ok := containerForm(args)
		if ok && (form == "build" || form == "compose build") {
			if why := buildPublishes(opts); why != "" {
				x.add(Deny, "publish.docker-push", args[0].val+" "+form+" "+why+": publishing, as docker push is")
				return
			}
		}
		if ok && form == "inspect" && x.personsLoopback() && (x.part == nil || len(x.part.Assigns) == 0) && containerStateInspect(opts) {
			x.add(Allow, RuleReadOnly, args[0].val+" inspect prints only a container's state (offlocal_tools.go)")
			return
		}
		if !ok || !x.c.sandbox || x.c.inPlace {
			prev(x, args)
			return
		}
		for _, w := range args[1:] {
			if !w.static || w.pattern {
				prev(x, args)
				return
			}
		}
		if form != "inspect" || !inspectSafe(opts) {
			prev(x, args)
			return
		}
		x.add(Allow, RuleContainerSandboxed, args[0].val+" "+form+containerSandboxedWhy)
	}
}

// containerForm finds the subcommand: build (docker build, image build,
// buildx build, buildx b, builder build), compose build (docker compose
// build, docker-compose build), inspect (inspect, image|container|volume|
// network inspect). opts are the words after it. A global option before
// it (-H, --context, --config) makes it no form at all.
func containerForm(args []word) (string, []word, bool) {
	prog := baseName(args[0].val)
	rest := args[1:]
	if len(rest) > 0 && strings.HasPrefix(rest[0].val, "-") {
		return "", nil, false
	}
	words := func(n int) string {
		var s []string
		for i := 0; i < n && i < len(rest); i++ {
			s = append(s, rest[i].val)
		}
		return strings.Join(s, " ")
	}
	if prog == "docker-compose" || prog == "podman-compose" {
		if words(1) == "build" {
			return "compose build", rest, true
		}
		return "", nil, false
	}
	switch {
	case words(1) == "build":
		return "build", rest[1:], true
	case words(2) == "image build" || words(2) == "buildx build" || words(2) == "buildx b" || words(2) == "builder build":
		return "build", rest[2:], true
	case words(1) == "inspect":
		return "inspect", rest[1:], true
	case words(2) == "image inspect" || words(2) == "container inspect" || words(2) == "volume inspect" || words(2) == "network inspect":
		return "inspect", rest[2:], true
	case words(1) == "compose":
		// compose's own options before the verb: -f FILE, -p NAME, --profile P
		i := 1
		for i < len(rest) && strings.HasPrefix(rest[i].val, "-") {
			switch rest[i].val {
			case "-f", "--file", "-p", "--project-name", "--profile":
				i += 2
			default:
				return "", nil, false
			}
		}
		if i < len(rest) && rest[i].val == "build" {
			return "compose build", rest, true // the compose options are judged with the build's
		}
	}
	return "", nil, false
}

// buildPublishes says how a build's options push its image, or "".
func buildPublishes(opts []word) string {
	for i, w := range opts {
		v := w.val
		name, val, _ := strings.Cut(v, "=")
		switch {
		case v == "--push" || name == "--push" && val != "false":
			return "--push pushes the image it builds to a registry"
		case (v == "-o" || v == "--output") && i+1 < len(opts):
			val = opts[i+1].val
			fallthrough
		case name == "--output" || strings.HasPrefix(v, "-o") && len(v) > 2 && !strings.HasPrefix(v, "--"):
			if name != "--output" && strings.HasPrefix(v, "-o") && len(v) > 2 {
				val = v[2:]
			}
			l := strings.ToLower(val)
			if strings.Contains(l, "type=registry") || strings.Contains(l, "push=true") {
				return "--output " + quoteShort(val) + " pushes the image it builds to a registry"
			}
		case v == "--cache-to" || name == "--cache-to":
			return "--cache-to exports the build cache to a registry or elsewhere"
		}
	}
	return ""
}

// inspectSafe: inspect [--format F] [--type T] [-s] NAME….
func inspectSafe(opts []word) bool {
	names := 0
	for i := 0; i < len(opts); i++ {
		v := opts[i].val
		name, _, hasVal := strings.Cut(v, "=")
		switch {
		case name == "-f" || name == "--format" || name == "--type":
			if !hasVal {
				i++
			}
		case v == "-s" || v == "--size":
		case strings.HasPrefix(v, "-"):
			return false
		default:
			names++
		}
	}
	return names > 0
}

// addContainerBuildHandlers wraps the container engines' handlers.
func addContainerBuildHandlers(handlers map[string]handler) {
	for _, n := range []string{"docker", "podman", "docker-compose", "podman-compose"} {
		handlers[n] = containerBuild(orUnknown(handlers[n]))
	}
}

// composeVerbFirst moves compose's own options before its verb (-f FILE,
// -p NAME, --profile P, --project-directory DIR) after it, so docker
// compose -f docker/compose.test.yml ps is read as the verb it runs, its
// file judged with the verb's other words as a path. A line with any other
// option there is returned unchanged.
func composeVerbFirst(args []word) []word {
	if len(args) < 3 || args[1].val != "compose" || !strings.HasPrefix(args[2].val, "-") {
		return args
	}
	i := 2
	for i < len(args) && strings.HasPrefix(args[i].val, "-") {
		switch name, _, eq := strings.Cut(args[i].val, "="); name {
		case "-f", "--file", "-p", "--project-name", "--profile", "--project-directory":
			if eq {
				i++
			} else {
				i += 2
			}
		default:
			return args
		}
	}
	if i >= len(args) {
		return args
	}
	out := append([]word{args[0], args[1], args[i]}, args[2:i]...)
	return append(out, args[i+1:]...)
}
