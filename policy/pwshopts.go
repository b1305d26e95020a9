package policy

import "strings"

// PowerShell's command line (pwsh and powershell.exe, about_Pwsh): the
// parameters whose value is code, the ones that take a value (so that
// `pwsh -ExecutionPolicy Bypass -Command '…'` is not read as a script named
// Bypass), and PowerShell's matching of any unambiguous prefix of a
// parameter's name, case-insensitively.

// pwshCode are the parameters whose value is code, with their aliases.
var pwshCode = []string{"-c", "-command", "-encodedcommand", "-e", "-ec"}

// pwshValued are the parameters that take the next word as their value.
var pwshValued = []string{"-executionpolicy", "-ex", "-ep", "-inputformat", "-inp", "-if", "-outputformat", "-o", "-of",
	"-workingdirectory", "-wd", "-configurationname", "-config", "-custompipename", "-settingsfile", "-settings",
	"-windowstyle", "-w", "-configurationfile", "-encodedarguments", "-ea", "-psconsolefile", "-version"}

// pwshParam gives the parameter a lower-cased option names: itself when
// it is a listed name or alias, else the one listed full name it is a
// prefix of (at least three letters), else itself.
func pwshParam(opt string) string {
	if !strings.HasPrefix(opt, "-") || contains(pwshCode, opt) || contains(pwshValued, opt) || len(opt) < 4 {
		return opt
	}
	match := ""
	for _, list := range [][]string{pwshCode, pwshValued} {
		for _, full := range list {
			if len(full) > len(opt) && strings.HasPrefix(full, opt) {
				if match != "" && match != full {
					return opt // ambiguous: pwsh refuses it
				}
				match = full
			}
		}
	}
	if match == "" {
		return opt
	}
	return match
}
