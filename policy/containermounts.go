package policy

import (
	"path/filepath"
	"strings"
)

// A container given a host folder and told to destroy it (polcorp14,
// issue 32): `docker run --rm -v ~:/h alpine rm -rf /h` deletes the home
// folder as `rm -rf ~` does, through the bind mount. It asked as "docker
// talks to remote services"; the command the container runs is now also
// judged with each mount's container path written as the host folder it
// is (in its argv and in a `sh -c` line), and a deny of that command
// denies the line. It only tightens: every other use is judged as before.

// containerEngines run containers with bind mounts.
var containerEngines = wordSet{words: []string{"docker", "podman", "nerdctl"}}

// containerRunValued are docker run's options that take the next word.
var containerRunValued = wordSet{words: []string{"-v", "--volume", "--mount", "-e", "--env", "--env-file", "--name", "-w", "--workdir",
	"-p", "--publish", "--network", "--net", "-u", "--user", "--entrypoint", "-l", "--label", "--platform", "--hostname", "-h",
	"-m", "--memory", "--cpus", "--restart", "--pull", "--add-host", "--dns", "--tmpfs", "--ulimit", "--gpus", "--log-driver",
	"--cidfile", "--shm-size", "--stop-signal", "--stop-timeout", "--health-cmd", "--group-add", "--ipc", "--pid", "--cap-add",
	"--cap-drop", "--security-opt", "--device", "--userns", "--expose", "--link", "--volumes-from", "--runtime", "-a", "--attach"}}

// containerRunFlags are docker run's options that take no value.
var containerRunFlags = wordSet{words: []string{"--rm", "-i", "-t", "-it", "-ti", "-d", "--detach", "--init", "--privileged",
	"--read-only", "-P", "--publish-all", "--interactive", "--tty", "-q", "--quiet", "--no-healthcheck", "--sig-proxy"}}

// containerRun reads `ENGINE run OPTIONS IMAGE CMD…`: the host folder of
// each bind mount by its container path, and the command the container
// runs (its entrypoint first). ok is false when the line is not one it
// can read.
func containerRun(args []word) (mounts map[string]string, inner []word, ok bool) {
	if len(args) < 4 || !containerEngines.has(filepath.Base(args[0].val)) || args[1].val != "run" {
		return nil, nil, false
	}
	mounts = map[string]string{}
	var entry []word
	rest := args[2:]
	for i := 0; i < len(rest); i++ {
		w := rest[i]
		if !w.static {
			return nil, nil, false
		}
		v := w.val
		if !strings.HasPrefix(v, "-") {
			inner = append(entry, rest[i+1:]...)
			return mounts, inner, len(inner) > 0
		}
		name, val, has := strings.Cut(v, "=")
		switch {
		case containerRunFlags.has(v):
			continue
		case containerRunValued.has(name):
			if !has {
				if i+1 >= len(rest) || !rest[i+1].static {
					return nil, nil, false
				}
				i++
				val = rest[i].val
			}
		default:
			return nil, nil, false
		}
		switch name {
		case "-v", "--volume":
			parts := strings.Split(val, ":")
			if len(parts) >= 2 && strings.HasPrefix(parts[1], "/") {
				mounts[filepath.Clean(parts[1])] = parts[0]
			}
		case "--mount":
			src, dst := "", ""
			for _, kv := range strings.Split(val, ",") {
				k, x, _ := strings.Cut(kv, "=")
				switch k {
				case "source", "src":
					src = x
				case "target", "destination", "dst":
					dst = x
				}
			}
			if src != "" && strings.HasPrefix(dst, "/") {
				mounts[filepath.Clean(dst)] = src
			}
		case "--entrypoint":
			entry = []word{{val: val, static: true}}
		}
	}
	return nil, nil, false
}

// hostPath writes p, a path inside the container, as the host path a
// mount gives it.
func hostPath(mounts map[string]string, p string) (string, bool) {
	for dst, src := range mounts {
		if p == dst || dst == "/" && strings.HasPrefix(p, "/") {
			return src + strings.TrimPrefix(p, strings.TrimSuffix(dst, "/")), true
		}
		if strings.HasPrefix(p, dst+"/") {
			return src + p[len(dst):], true
		}
	}
	return "", false
}

// hostLine writes the mounted container paths of a shell line as host
// paths, word by blank-separated word (quotes kept).
func hostLine(mounts map[string]string, line string) string {
	fields := strings.Fields(line)
	for i, f := range fields {
		core := strings.Trim(f, `"';&|()`)
		if h, ok := hostPath(mounts, strings.TrimRight(core, "/")); ok && core != "" {
			fields[i] = strings.Replace(f, strings.TrimRight(core, "/"), h, 1)
		}
	}
	return strings.Join(fields, " ")
}

// judgeContainerMounts denies a container run whose command, with its
// mounts written as the host folders, is denied.
func (x *cmdCtx) judgeContainerMounts(args []word) {
	mounts, inner, ok := containerRun(args)
	if !ok || len(mounts) == 0 {
		return
	}
	for dst, src := range mounts {
		if (src == "~" || strings.HasPrefix(src, "~/")) && x.c.home != "" {
			mounts[dst] = x.c.home + src[1:]
		}
	}
	mapped := make([]word, len(inner))
	for i, w := range inner {
		mapped[i] = w
		if h, ok := hostPath(mounts, strings.TrimRight(w.val, "/")); ok {
			mapped[i].val = h
		} else if i > 0 && inner[i-1].val == "-c" {
			mapped[i].val = hostLine(mounts, w.val)
		}
	}
	if f, ok := x.innerDenied(mapped); ok {
		x.add(Deny, f.rule, f.reason+" (in a container given the host folder)")
	}
}
