package config

import "time"

func parseDuration(s string) (time.Duration, error) { return time.ParseDuration(s) }

// VerifyTimeout is the per-command verification timeout (default 10m).
func (c Config) VerifyTimeout() time.Duration {
	if d, err := parseDuration(c.Verify.Timeout); err == nil && d > 0 {
		return d
	}
	return 10 * time.Minute
}
