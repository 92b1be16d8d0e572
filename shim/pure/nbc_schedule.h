/* A nonblocking collective as a schedule: pure C, no MPI.
 *
 * One rank's part of a collective is a list of point-to-point steps in rounds: every
 * step of round r is posted once every step due before round r has completed (a round
 * may be empty). A step is due at the end of its own round, or `lag` rounds later: a
 * pipeline keeps receives posted ahead of the segment it waits for, and sends in flight
 * while the next segments come in, without holding back the rounds (the blocking tree's
 * windows, tree_exec.c). The steps say who and which piece of the call's data; the executor
 * (shim/nbc.c) maps a piece to a buffer, posts the steps on the communicator's
 * nonblocking duplicate with the call's own tag, and advances the rounds inside the
 * MPI calls the application makes anyway (doc/design.md: Nonblocking collectives).
 * A schedule is built whole when the call is issued, from data identical on every rank
 * (the layout, the tree, the root), so a receive posted in one round always finds the
 * send another rank posts in some round: the builders' tests check it for every rank
 * of simulated worlds (test/unit/check_nbc_schedule.c). Steps between one pair of ranks
 * match in the order each side posts them (MPI's non-overtaking rule: one communicator,
 * one tag), so a builder posts a pair's pieces in the same order on both sides. */
#ifndef GC_NBC_SCHEDULE_H
#define GC_NBC_SCHEDULE_H

enum gc_nbc_kind { GC_NBC_RECV, GC_NBC_SEND };

struct gc_nbc_step {
  int round; /* when it is posted; nondecreasing along a schedule */
  int kind;  /* enum gc_nbc_kind */
  int peer;  /* communicator rank */
  int piece; /* which part of the call's data (the op's executor says); the broadcast:
                its segment (0, the whole message, when unsegmented) */
  int lag;   /* >= 0: it must have completed before round `round + lag + 1` is posted
                (0: before the next round) */
};

#endif
