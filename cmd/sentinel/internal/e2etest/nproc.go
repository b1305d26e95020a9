package e2etest

// NprocFiller is a project script (bash fill.sh, started in its own
// session) that forks sleepers until a fork is refused — the command's
// RLIMIT_NPROC, where no pids cgroup bounds the sandbox (not root) —
// notes the count in fill.log, and keeps every slot that frees taken
// again, for good.
const NprocFiller = `exec perl -e 'my $n = 0;
while (1) { my $p = fork(); last unless defined $p; if ($p == 0) { sleep 100000; exit 0 } $n++ }
open(my $l, ">", "fill.log"); print $l "full $n: $!\n"; close $l;
while (1) { my $p = fork(); if (defined $p && $p == 0) { sleep 100000; exit 0 } select(undef, undef, undef, 0.01) }'
`

// NprocFill is the command that starts NprocFiller (as fill.sh in the
// project) and returns once it is full.
const NprocFill = `setsid bash fill.sh >/dev/null 2>fill.err </dev/null & until [ -s fill.log ]; do :; done`
