/* Where a pipelined broadcast cuts its message: segments in BYTES of the packed message.
 *
 * MPI lets the root and the receivers use different datatypes with the same type
 * signature, so no rank can cut in elements of its own type and expect the others to cut
 * at the same places. What every rank shares is the type signature, hence the message's
 * size in bytes, and the configured segment size: segment s is bytes
 * [s * seg, min((s + 1) * seg, m)) of the message packed in type-map order, the last one
 * short. Every rank computes the same cuts from (m, seg) alone, whatever its datatype.
 * A cut may fall inside an element: gc_bcast_segment_elements says which elements a byte
 * prefix completes and which it touches, for ranks that pack and unpack their own type.
 * Pure arithmetic, no MPI (unit-tested by test/unit/check_bcast_segments.c). */
#ifndef GC_BCAST_SEGMENT_SCHEDULE_H
#define GC_BCAST_SEGMENT_SCHEDULE_H

#include <stdint.h>

/* How many segments the tree executor (tree_exec.c) keeps in flight, which the cost model
 * reads too (gc_bcast_tree_input: segments posted together share an edge and arrive
 * together). Receives posted ahead of the segment being forwarded: one is not enough,
 * segments above the eager limit go by rendezvous, and a receive posted only when the
 * previous segment is in makes every segment wait a wide-area round trip (make
 * bench-grid-bcast shows the cost: doc/benchmarks.md). */
#define GC_BCAST_RECV_AHEAD 32
/* Send requests a leader keeps on the stack for all its children together: each child
 * gets GC_BCAST_SEND_REQS / children segments in flight (at least one). */
#define GC_BCAST_SEND_REQS 256

struct gc_bcast_segments {
  uint64_t bytes; /* m: the whole message */
  uint64_t seg;   /* bytes per segment (the last may be shorter); == bytes when n <= 1 */
  uint64_t n;     /* number of segments: 0 for an empty message, else >= 1 */
};

/* The segments of a message of m bytes cut every seg bytes; seg = 0 (no segmentation) or
 * seg >= m gives one segment of the whole message. */
struct gc_bcast_segments gc_bcast_segments_make(uint64_t m, uint64_t seg);

/* Segment s (< n): its first byte and its length (> 0). */
void gc_bcast_segment_range(const struct gc_bcast_segments *s, uint64_t i, uint64_t *first,
                            uint64_t *len);

/* For the byte prefix [0, end) of count elements of tsize > 0 bytes each: *whole, the
 * elements it holds completely (they can be unpacked), and *touched, those it holds at
 * least one byte of (they must be packed before it can be sent). Both <= count. */
void gc_bcast_segment_elements(uint64_t end, uint64_t tsize, uint64_t count, uint64_t *whole,
                               uint64_t *touched);

#endif
