/* The model names written into the logs.  One table with
 * designated initializers (UCC style) so that id, name and source stay together; a name
 * is written nowhere else (the log, gridcoll-predict and the report print this one). */
#include "model.h"

static const struct gc_model_info models[GC_MODEL_LAST] = {
  [GC_MODEL_HOCKNEY_LINEAR] = {.id = GC_MODEL_HOCKNEY_LINEAR, .name = "hockney-linear",
                               .source = "000 Eq. 1, Prop. 1",
                               .desc = "(n-1)(alpha + m*beta), the 1-port lower bound"},
  [GC_MODEL_SIGNATURE] = {.id = GC_MODEL_SIGNATURE, .name = "signature",
                          .source = "000 Eq. 4, 5",
                          .desc = "(n-1)(alpha + m*beta*gamma [+ delta from M on])"},
  [GC_MODEL_BINOMIAL_HOCKNEY] = {.id = GC_MODEL_BINOMIAL_HOCKNEY, .name = "binomial-hockney",
                                 .source = "Hockney; 003 Sec. 3 tree",
                                 .desc = "ceil(log2 P)(alpha + m*beta)"},
  [GC_MODEL_BINOMIAL_GRID] = {.id = GC_MODEL_BINOMIAL_GRID, .name = "binomial-grid",
                              .source = "MPICH/SMPI binomial tree, eager sends",
                              .desc = "below bcast.native_eager a parent's sends start "
                                      "together, pay their latency, share its NIC by "
                                      "1/latency (across: the link shared by the level's "
                                      "edges); from it on one after the other, walked in "
                                      "time: latency + m/rate, across window-capped and "
                                      "the link shared by the flows crossing it at once"},
  [GC_MODEL_TREE_NIC_FANOUT] = {.id = GC_MODEL_TREE_NIC_FANOUT, .name = "tree-nic-fanout",
                                .source = "001 Eq. 1-2, sends posted at once",
                                .desc = "max_i T(i) + local(i); a leader's flows (its own "
                                        "cluster's broadcast too) pay their latency, then "
                                        "share its NIC by 1/latency, window-capped; "
                                        "segments pipelined by the group posted at once"},
  [GC_MODEL_HETERO_BCAST] = {.id = GC_MODEL_HETERO_BCAST, .name = "hetero-004-bcast",
                             .source = "004 Eq. 5, 8",
                             .desc = "max root-to-leaf path sum + Gamma + tau*M"},
  [GC_MODEL_LINEAR_GRID] = {.id = GC_MODEL_LINEAR_GRID, .name = "linear-grid",
                            .source = "000 Eq. 6 posted at once, shared links",
                            .desc = "alpha + max(NIC fed as latencies release its flows, "
                                    "max over pairs of max(W, local) + n_c*n_d*m/bw)"},
  [GC_MODEL_PAIRWISE_GRID] = {.id = GC_MODEL_PAIRWISE_GRID, .name = "pairwise-grid",
                              .source = "MPICH/Open MPI pairwise exchange",
                              .desc = "sum over n-1 steps of the step's slowest message, "
                                      "links shared by the step's flows"},
  [GC_MODEL_LG_BACKBONE] = {.id = GC_MODEL_LG_BACKBONE, .name = "lg-backbone",
                            .source = "000 Eq. 7, reference.md section 3, shared links",
                            .desc = "alpha + staged bytes*beta, then alpha + max(NIC fed "
                                    "as latencies release its flows, max over pairs of "
                                    "W + a*b*m/bw)"},
  [GC_MODEL_LINEAR_GRID_V] = {.id = GC_MODEL_LINEAR_GRID_V, .name = "linear-grid-v",
                              .source = "linear-grid, variable counts",
                              .desc = "native alltoallv posted at once: alpha + max(local "
                                      "bytes*beta*gamma, W) + max(remote bytes*beta, pair "
                                      "total/bw), each process's even share"},
  [GC_MODEL_LGV_BACKBONE] = {.id = GC_MODEL_LGV_BACKBONE, .name = "lgv-backbone",
                             .source = "lg-backbone, variable counts",
                             .desc = "LG-v: alpha + staged bytes*beta*gamma, then alpha + W + "
                                     "max(pair total/bw, bytes*beta), each pair's average "
                                     "block"},
  [GC_MODEL_RELAY_BACKBONE] = {.id = GC_MODEL_RELAY_BACKBONE, .name = "relay-backbone",
                               .source = "lg-backbone, routes of issue 27's planner",
                               .desc = "lg-backbone's local phase, then the larger of its "
                                       "wide phase on the direct bytes and every link's "
                                       "latest route + load/bw with the relayed bytes on "
                                       "it (a relay's interfaces; a relay forwards its "
                                       "legs in parts, cut-through); no agreement per "
                                       "call, as LG"},
  [GC_MODEL_MEASURED] = {.id = GC_MODEL_MEASURED, .name = "measured",
                         .source = "gridcoll-calibrate, the MPI library's own call timed",
                         .desc = "the configuration's native table on the layout it was "
                                 "measured on, interpolated between its sizes"},
};

const struct gc_model_info *gc_model_info(enum gc_model_id id)
{
  if ((int)id < 0 || id >= GC_MODEL_LAST)
    return NULL;
  return &models[id];
}

const char *gc_model_name(enum gc_model_id id)
{
  const struct gc_model_info *i = gc_model_info(id);
  return i ? i->name : "?";
}
