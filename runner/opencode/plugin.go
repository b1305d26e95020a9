package opencode

import (
	_ "embed"
	"encoding/json"
	"errors"
	"strconv"
	"strings"
	"time"
)

// pluginSource is Sentinel's plugin for opencode (plugin.js): Sentinel's
// own code, filled in with the hook command by Plugin.
//
//go:embed plugin.js
var pluginSource string

// PluginFile is the plugin's file name in the run's opencode config dir
// (its plugin/ folder, which opencode loads every file of).
const PluginFile = "sentinel-approvals.js"

// DecideWait is how long the plugin waits for the hook's answer before it
// blocks the call: beyond the hook's own wait (hookclient's 9.5 minutes,
// after which the hook denies by itself), so the hook's answer, deny
// included, normally comes first.
const DecideWait = 10 * time.Minute

// ReportWait is how long the plugin waits for a report to be taken.
const ReportWait = 30 * time.Second

// Plugin is plugin.js running hook (the hook command's argv: the helper or
// the sentinel binary, "hook", "opencode"), blocking a call undecided
// after decide and giving up on a report after report; the commands
// opencode runs get home as HOME (none: opencode's own).
func Plugin(hook []string, home string, decide, report time.Duration) (string, error) {
	if len(hook) == 0 || hook[0] == "" {
		return "", errors.New("opencode plugin: no hook command")
	}
	if decide <= 0 || report <= 0 {
		return "", errors.New("opencode plugin: waits must be positive")
	}
	argv, err := json.Marshal(hook) // a JS array literal (encoding/json escapes U+2028 and U+2029)
	if err != nil {
		return "", err
	}
	h, err := json.Marshal(home)
	if err != nil {
		return "", err
	}
	src := strings.NewReplacer(
		"__SENTINEL_HOOK__", string(argv),
		"__SENTINEL_HOME__", string(h),
		"__SENTINEL_DECIDE_MS__", strconv.FormatInt(decide.Milliseconds(), 10),
		"__SENTINEL_REPORT_MS__", strconv.FormatInt(report.Milliseconds(), 10),
	).Replace(pluginSource)
	return src, nil
}
