// Package launchd owns the macOS launchd agent that runs the user service:
// its property list and where it goes. It renders text and computes paths
// only; cmd/sentinel writes the file and runs launchctl.
package launchd

import (
	"bytes"
	"encoding/xml"
	"fmt"
	"path/filepath"
	"strings"
)

// Label is the agent's launchd label (and its plist's file name).
const Label = "com.sentinelhq.sentinel.service"

// PlistPath is where the agent's plist goes: ~/Library/LaunchAgents.
func PlistPath(home string) string {
	return filepath.Join(home, "Library", "LaunchAgents", Label+".plist")
}

// LogPath is where launchd sends the service's output.
func LogPath(home string) string {
	return filepath.Join(home, "Library", "Logs", "sentinel", "service.log")
}

// Domain is the launchctl domain of the logged-in user uid's GUI session,
// where a LaunchAgent is bootstrapped.
func Domain(uid int) string { return fmt.Sprintf("gui/%d", uid) }

// Plist is the agent for the sentinel binary at exe: `exe service`, started
// at login and again if it exits with a failure, output to LogPath.
func Plist(exe, home string) (string, error) {
	for _, s := range []string{exe, home} {
		if strings.ContainsFunc(s, func(r rune) bool { return r < 0x20 || r == 0x7f }) {
			return "", fmt.Errorf("the path %q has a control character: move sentinel (or HOME) to a plain path and install again", s)
		}
	}
	esc := func(s string) string {
		var b bytes.Buffer
		_ = xml.EscapeText(&b, []byte(s))
		return b.String()
	}
	return `<?xml version="1.0" encoding="UTF-8"?>
<!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
<plist version="1.0">
<dict>
	<key>Label</key>
	<string>` + Label + `</string>
	<key>ProgramArguments</key>
	<array>
		<string>` + esc(exe) + `</string>
		<string>service</string>
	</array>
	<key>RunAtLoad</key>
	<true/>
	<key>KeepAlive</key>
	<dict>
		<key>SuccessfulExit</key>
		<false/>
	</dict>
	<key>ThrottleInterval</key>
	<integer>2</integer>
	<key>ProcessType</key>
	<string>Background</string>
	<key>StandardOutPath</key>
	<string>` + esc(LogPath(home)) + `</string>
	<key>StandardErrorPath</key>
	<string>` + esc(LogPath(home)) + `</string>
</dict>
</plist>
`, nil
}
