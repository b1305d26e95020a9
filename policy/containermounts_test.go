package policy

import "testing"

// TestContainerMountDestruction holds polcorp14's class: a container
// given a host folder and told to delete it, or to read a credential
// through it, is judged as the same command on the host folder (denied);
// a container given the workspace, or given a host folder only to list
// it, is judged as before (docker asks; a home folder mounted writable is
// already denied), and `~:/h` (which bash does not
// expand, so docker mounts no home) is not read as the home folder.
func TestContainerMountDestruction(t *testing.T) {
	ctx := testEnv(t)
	e := Default()
	on := ctx
	on.Sandboxed = true
	deny := []string{
		`docker run --rm -v "$HOME":/h alpine rm -rf /h`,
		`docker run --rm -v ~/:/h alpine rm -rf /h`,
		`docker run -it --rm -v /:/host busybox rm -rf /host/home`,
		`podman run --rm --mount type=bind,source=/home/me,target=/data alpine find /data -delete`,
		`docker run --rm -v /home/me:/h --entrypoint rm alpine -rf /h`,
		`nerdctl run --rm -v ~/.ssh:/k alpine cat /k/id_rsa`,
		`docker run --rm --volume=/etc:/x:rw alpine sh -c 'rm -rf /x/*'`,
	}
	for _, cmd := range deny {
		for _, cx := range []Context{on, ctx} {
			if v := e.Check(Query{Kind: KindShell, Command: cmd, Context: cx}); v.Decision != Deny {
				t.Errorf("sandbox %v: %q: %s by %s (%s), want deny", cx.Sandboxed, cmd, v.Decision, v.Rule, v.Reason)
			}
		}
	}
	notDeny := []string{
		`docker run --rm -v "$PWD":/src -w /src golang:1.26 go test ./...`,
		`docker run --rm -v .:/app node:22 npm test`,
		`docker run --rm -v ~:/h alpine rm -rf /h`,
		`docker run --rm -v "$PWD":/w alpine ls /w`,
	}
	for _, cmd := range notDeny {
		for _, cx := range []Context{on, ctx} {
			if v := e.Check(Query{Kind: KindShell, Command: cmd, Context: cx}); v.Decision == Deny {
				t.Errorf("sandbox %v: %q denied by %s (%s), want it judged as before", cx.Sandboxed, cmd, v.Rule, v.Reason)
			}
		}
	}
}
