/* A nonblocking collective as a schedule: pure C, no MPI.
 *
 * One rank's part of a collective is a list of point-to-point steps in rounds: every
 * step of round r is posted once every step of round r - 1 has completed (a round may
 * be empty). The steps say who and which piece of the call's data; the executor
 * (shim/nbc.c) maps a piece to a buffer, posts the steps on the communicator's
 * nonblocking duplicate with the call's own tag, and advances the rounds inside the
 * MPI calls the application makes anyway (doc/design.md: Nonblocking collectives).
 * A schedule is built whole when the call is issued, from data identical on every rank
 * (the layout, the tree, the root), so a receive posted in one round always finds the
 * send another rank posts in some round: the builders' tests check it for every rank
 * of simulated worlds (test/unit/check_nbc_schedule.c). */
#ifndef GC_NBC_SCHEDULE_H
#define GC_NBC_SCHEDULE_H

enum gc_nbc_kind { GC_NBC_RECV, GC_NBC_SEND };

struct gc_nbc_step {
  int round; /* nondecreasing along a schedule */
  int kind;  /* enum gc_nbc_kind */
  int peer;  /* communicator rank */
  int piece; /* which part of the call's data (the op's executor says); the broadcast:
                0, the whole message */
};

#endif
