// Package queue is the cross-run approval queue the user service holds
// (`sentinel service`), and the two ends that use it:
//
//   - the service's side (Queue, Mount): requests posted by runs with
//     nobody at their own terminal (or with a person there too), answered
//     by `sentinel queue` or `sentinel console`; the first answer wins, a
//     run withdraws its own requests, and a wait ends when the run goes
//     away. It also keeps each run's reported state for `sentinel status`
//     and nudges the person when a request starts waiting (Notifier).
//   - the run's side (Person): an approvals.Remote that posts a prompt
//     and waits for the answer. The answer is checked by the run that owns
//     the request — a remembered grant must be one its own card would have
//     offered — and the run's broker stores it, never the queue.
//
// The ops are documented in internal/servicewire/PROTOCOL.md. The queue
// trusts no claim a client makes about itself: an answer goes only to the
// connection that posted the request, a withdrawal only counts from the
// process that posted it (SO_PEERCRED), and an answer must name a request
// that is waiting.
package queue
