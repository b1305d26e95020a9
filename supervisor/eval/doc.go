// Package eval measures a supervisor model's judgement: it owns the labelled
// corpus of gray-zone requests (corpus.jsonl, embedded) and the harness that
// sends each one through the real judge (supervisor.Supervisor.Decide) and
// scores the answers — false-allow and false-deny rates overall and per
// category with Wilson 95% intervals, failures to answer (each a deny, as a
// gate that cannot answer is a no), latency, tokens and the worst misses.
//
// `sentinel supervisor eval` is its command line. It decides nothing for a
// run and must not be imported by the runner.
package eval
