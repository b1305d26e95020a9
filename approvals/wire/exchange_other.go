//go:build !linux && !darwin

package wire

import (
	"context"
	"time"
)

func exchange(ctx context.Context, socketPath string, m Message, d time.Duration) (Message, error) {
	return exchangeNet(ctx, socketPath, m, d)
}
