//go:build unix

package mcpserver

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"time"
)

// getentPaths are where getent is looked for: by absolute path only, never
// from PATH (a program the place could put first).
var getentPaths = []string{"/usr/bin/getent", "/bin/getent"}

// privateGroup reports whether gid is the private group of the user uid
// (user private groups: umask 002 on Debian/Fedora, WSL): uid's primary
// group, naming no member but uid's own user, and no other user's primary
// group. A file writable by such a group can be written by nobody but its
// owner, so it is not refused for its group bit. why says, when not, who
// else is in the group (for the refusal's line). Users and groups are read
// through getent, as the system resolves them (NSS: files, LDAP, sssd); a
// group that cannot be looked up is not private.
func privateGroup(uid, gid int) (ok bool, why string) {
	pw := getent("passwd", strconv.Itoa(uid))
	if len(pw) != 1 {
		return false, fmt.Sprintf("uid %d cannot be looked up", uid)
	}
	user := pw[0]
	if len(user) < 4 || user[3] != strconv.Itoa(gid) {
		return false, fmt.Sprintf("gid %d is not %s's own group", gid, user[0])
	}
	gr := getent("group", strconv.Itoa(gid))
	if len(gr) != 1 || len(gr[0]) < 4 {
		return false, fmt.Sprintf("gid %d cannot be looked up", gid)
	}
	name := gr[0][0]
	for _, m := range strings.Split(gr[0][3], ",") {
		if m != "" && m != user[0] {
			return false, fmt.Sprintf("group %s has other members (%s)", name, m)
		}
	}
	// Every user, to see no other has gid as its primary group: a listing
	// that fails, times out or leaves out the owner itself (NSS without
	// enumeration) cannot show that, and the group is not private.
	listed := false
	for _, u := range getent("passwd") {
		if len(u) < 4 {
			continue
		}
		listed = listed || u[2] == strconv.Itoa(uid)
		if u[3] == strconv.Itoa(gid) && u[2] != strconv.Itoa(uid) {
			return false, fmt.Sprintf("group %s is also %s's primary group", name, u[0])
		}
	}
	if !listed {
		return false, fmt.Sprintf("the users of group %s cannot all be listed", name)
	}
	return true, ""
}

// getent is getent's entries of database (for keys, or every entry), each
// split at ':'; none when getent is missing or fails.
func getent(database string, keys ...string) [][]string {
	var bin string
	for _, p := range getentPaths {
		if fi, err := os.Stat(p); err == nil && fi.Mode().IsRegular() {
			bin = p
			break
		}
	}
	if bin == "" {
		return nil
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, append([]string{database}, keys...)...)
	cmd.Env = []string{}
	out, err := cmd.Output()
	if err != nil {
		return nil
	}
	var entries [][]string
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	for sc.Scan() {
		entries = append(entries, strings.Split(sc.Text(), ":"))
	}
	if sc.Err() != nil {
		return nil // a listing cut short is no listing
	}
	return entries
}
