/* The latency probe's pure parts: who pings whom in which round, and how the measured
 * matrix is made symmetric. No MPI (shim/probe.c runs the schedule with PMPI).
 *
 * Rounds of disjoint pairs (a round-robin tournament, circle method): cluster leaders
 * measure in parallel without two pings ever sharing a leader, and every pair of the
 * k clusters meets exactly once. A round is a perfect matching, so k even takes k-1
 * rounds and k odd takes k (one cluster sits out each round: k(k-1)/2 pairs at most
 * (k-1)/2 per round), which is the least any schedule of disjoint pairs can do. */
#ifndef GC_PROBE_SCHEDULE_H
#define GC_PROBE_SCHEDULE_H

/* Rounds for k clusters: k-1 (k even), k (k odd), 0 for k < 2. */
int gc_probe_rounds(int k);

/* Partner of cluster c in round r (0 <= r < gc_probe_rounds(k)), or -1 when c sits
 * this round out or the arguments are out of range. Symmetric: partner(partner(c)) = c. */
int gc_probe_partner(int k, int r, int c);

/* Makes the k x k one-way latency matrix symmetric: each off-diagonal pair gets the
 * smaller of its two entries that are > 0 (0 or less means "not measured", and so does
 * a NaN or a time above an hour, what the loader refuses; one under 1 ns counts as 1 ns);
 * a pair with neither measured is set to 0 on both sides. The diagonal is left alone.
 * Returns the number of pairs left unmeasured. */
int gc_probe_symmetrise(int k, double *lat);

#endif
