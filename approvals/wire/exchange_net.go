//go:build !linux && !darwin

package wire

import (
	"bufio"
	"context"
	"errors"
	"net"
	"time"
)

// exchangeNet is, where no raw-socket exchange is built (not Linux or macOS:
// their hook must link neither net nor its cgo resolver), the exchange through
// the net package: where no hook runs inside a sandbox (Windows has no
// sandbox backend yet) a hook's start-up cost does not matter. It keeps
// the same contract: the first answer line with m's id, bounded by ctx, d
// and dialTimeout.
func exchangeNet(ctx context.Context, socketPath string, m Message, d time.Duration) (Message, error) {
	if socketPath == "" {
		return Message{}, NoRun()
	}
	m.V, m.ID = ProtocolVersion, oneID
	line, err := encodeLine(m)
	if err != nil {
		return Message{}, err
	}
	line = append(line, '\n')
	if d > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, d)
		defer cancel()
	}
	if err := ctx.Err(); err != nil {
		return Message{}, err
	}
	dctx, cancel := context.WithTimeout(ctx, dialTimeout)
	c, err := (&net.Dialer{}).DialContext(dctx, "unix", socketPath)
	cancel()
	if err != nil {
		if cerr := ctx.Err(); cerr != nil {
			return Message{}, cerr
		}
		return Message{}, Unreachable(socketPath, err)
	}
	defer c.Close()
	stop := context.AfterFunc(ctx, func() { c.SetDeadline(time.Unix(1, 0)) })
	defer stop()
	gone := func(err error) (Message, error) {
		if cerr := ctx.Err(); cerr != nil {
			return Message{}, cerr
		}
		return Message{}, err
	}
	if _, err := c.Write(line); err != nil {
		return gone(Unreachable(socketPath, err))
	}
	r := bufio.NewReaderSize(c, 4096)
	var buf []byte
	for {
		chunk, err := r.ReadSlice('\n')
		buf = append(buf, chunk...)
		if len(buf) > MaxMessage {
			return gone(errors.New("the broker's answer is longer than a protocol line may be"))
		}
		if errors.Is(err, bufio.ErrBufferFull) {
			continue
		}
		if err != nil {
			return gone(errors.New("the broker went away: " + err.Error()))
		}
		if a, err := decodeAnswer(buf[:len(buf)-1]); err == nil && a.ID == oneID {
			return a, nil
		}
		buf = buf[:0]
	}
}
