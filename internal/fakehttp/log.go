// Package fakehttp holds what the fake model servers used by tests share:
// Scripted, the base each scripted fake embeds (its request log, URL,
// main-loop rule, player and listener; Received, a request as it arrived),
// the log of the requests they received, by kind, with a way to wait for the
// next one, the player of their scripted turns, and how they listen on
// loopback and answer JSON. It is test support: no
// production code imports it.
package fakehttp

import "sync"

// Kind is which list a received request goes in.
type Kind int

// The kinds of request a fake model server tells apart.
const (
	Main  Kind = iota // a turn of the agent's loop (consumes a scripted turn)
	Side              // a model request that is not a loop turn (titles, summaries)
	Other             // any other endpoint
)

// Log records received requests. Its zero value is ready to use; embed it
// in a server to give it Requests, SideRequests, OtherRequests and Changed.
type Log[T any] struct {
	mu      sync.Mutex
	lists   [3][]T
	changed chan struct{}
}

// Record appends r to the list of its kind and wakes whoever waits on Changed.
func (l *Log[T]) Record(k Kind, r T) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.lists[k] = append(l.lists[k], r)
	if l.changed != nil {
		close(l.changed)
	}
	l.changed = make(chan struct{})
}

func (l *Log[T]) list(k Kind) []T {
	l.mu.Lock()
	defer l.mu.Unlock()
	return append([]T(nil), l.lists[k]...)
}

// Requests are the main-loop requests received so far, in order.
func (l *Log[T]) Requests() []T { return l.list(Main) }

// SideRequests are the model requests judged not to be main-loop turns.
func (l *Log[T]) SideRequests() []T { return l.list(Side) }

// OtherRequests are the requests to any other endpoint.
func (l *Log[T]) OtherRequests() []T { return l.list(Other) }

// Changed is closed (and replaced) whenever a request is recorded; wait on
// it to react to traffic without polling on a timer.
func (l *Log[T]) Changed() <-chan struct{} {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.changed == nil {
		l.changed = make(chan struct{})
	}
	return l.changed
}
