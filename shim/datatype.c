/* Datatype checks before gridcoll acts on a call (datatype.h). */
#include "datatype.h"

#include <limits.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <string.h>

#include "gridcoll.h"

/* A duplicate of MPI_COMM_SELF with MPI_ERRORS_RETURN: the probe's errors come back as
 * codes. Created on first use (a collective over this process alone, so safe inside any
 * call), left to MPI_Finalize. MPI_COMM_NULL if it could not be made: every call then
 * passes through. */
static MPI_Comm probe_comm = MPI_COMM_NULL;

static void make_probe_comm(void)
{
  MPI_Comm c;
  if (PMPI_Comm_dup(MPI_COMM_SELF, &c) != MPI_SUCCESS)
    return;
  if (PMPI_Comm_set_errhandler(c, MPI_ERRORS_RETURN) != MPI_SUCCESS) {
    PMPI_Comm_free(&c);
    return;
  }
  probe_comm = c;
}

/* Packing zero elements touches no memory and needs a valid, committed datatype; its
 * errors, an invalid handle's included, come back on probe_comm as codes. (Asked first,
 * PMPI_Type_size_x would report an invalid handle through MPI_COMM_WORLD's handler, as
 * MPICH does for calls without a communicator, and abort a program that only asked the
 * communicator it used to return errors.) */
static int packable(MPI_Datatype type)
{
  static pthread_once_t once = PTHREAD_ONCE_INIT;
  pthread_once(&once, make_probe_comm);
  char scratch[1];
  int position = 0;
  return probe_comm != MPI_COMM_NULL &&
         PMPI_Pack(scratch, 0, type, scratch, (int)sizeof scratch, &position, probe_comm) ==
             MPI_SUCCESS;
}

/* A handle that calls itself predefined (combiner MPI_COMBINER_NAMED) must be one of
 * MPI's predefined datatypes (datatype_predefined.h). MPICH encodes predefined handles as integers and accepts, in
 * PMPI_Bcast, a forged one whose index is out of range (it reads the size from the
 * handle's bits), but asserts and aborts when asked its extent: gridcoll must not ask.
 * Such a call passes through untouched, so the result is the library's. */
static int named_known(MPI_Datatype type, int *predefined)
{
  int ni, na, nd, combiner;
  *predefined = 0;
  if (PMPI_Type_get_envelope(type, &ni, &na, &nd, &combiner) != MPI_SUCCESS)
    return 0;
  if (combiner != MPI_COMBINER_NAMED)
    return 1;
  const MPI_Datatype known[] = {
#include "datatype_predefined.h"
  };
  for (size_t i = 0; i < sizeof known / sizeof known[0]; i++)
    if (type == known[i])
      return *predefined = 1;
  return 0;
}

/* The datatypes found usable last, per thread, with their sizes: what a passthrough
 * call's prepare would otherwise ask MPI three times (a pack, an envelope and a size:
 * about 300 instructions, more for a derived type). A predefined slot stays true for the
 * whole run: MPI never frees those, and no derived datatype can take their handle values.
 * A derived datatype's handle is reused after MPI_Type_free by a type that may be
 * uncommitted or of another size, and the free does not pass through gridcoll (Fortran's
 * reaches the library's internals directly). So a derived type is kept only once it
 * carries gridcoll's attribute, whose delete callback MPI runs when the type is really
 * freed, from C or Fortran: the callback advances gc_datatype_frees, and a slot kept under an
 * older count is asked again. One free forgets every thread's derived slots: frees of
 * types gridcoll saw are rare, a wrong size is not an option. */
enum { TYPE_SLOTS = 4 };
static GC_TLS struct {
  MPI_Datatype type;
  MPI_Count size;
  unsigned long frees; /* gc_datatype_frees when kept; ULONG_MAX: predefined, never stale */
  int set;
} known_types[TYPE_SLOTS];

_Atomic unsigned long gc_datatype_frees;
static int type_keyval = MPI_KEYVAL_INVALID;

/* Called by MPI inside the application's MPI_Type_free: no MPI call here. */
static int forget_type(MPI_Datatype type, int keyval, void *value, void *extra)
{
  (void)type, (void)keyval, (void)value, (void)extra;
  atomic_fetch_add_explicit(&gc_datatype_frees, 1, memory_order_relaxed);
  return MPI_SUCCESS;
}

static void make_type_keyval(void)
{
  int kv;
  if (PMPI_Type_create_keyval(MPI_TYPE_NULL_COPY_FN, forget_type, &kv, NULL) == MPI_SUCCESS)
    type_keyval = kv;
}

/* 1 when the derived type carries the attribute (a duplicate does not inherit it:
 * MPI_TYPE_NULL_COPY_FN). Set once per type: setting it again would run the delete
 * callback on the old value, a free that is none. The count is read first, so a free
 * that lands in between leaves the slot stale, never wrong. */
static int watch_type(MPI_Datatype type, unsigned long *frees)
{
  static pthread_once_t once = PTHREAD_ONCE_INIT;
  pthread_once(&once, make_type_keyval);
  *frees = atomic_load_explicit(&gc_datatype_frees, memory_order_relaxed);
  void *value;
  int present = 0;
  return type_keyval != MPI_KEYVAL_INVALID &&
         PMPI_Type_get_attr(type, type_keyval, &value, &present) == MPI_SUCCESS &&
         (present || PMPI_Type_set_attr(type, type_keyval, NULL) == MPI_SUCCESS);
}

/* MPI_Datatype is an int (MPICH: the size sits in bits 8-15, the index in the low
 * byte) or a pointer (Open MPI: static objects some hundred bytes apart). */
static unsigned type_index(MPI_Datatype type)
{
  uintptr_t h = (uintptr_t)type;
  return (unsigned)((h ^ (h >> 8) ^ (h >> 10)) % TYPE_SLOTS);
}

/* A type not in its slot: asked, and kept when it may be. Out of line, so that a hit
 * saves no registers (this is on every intercepted call's path). */
static __attribute__((noinline)) int usable_asked(MPI_Datatype type, MPI_Count *size, unsigned i)
{
  int predefined;
  unsigned long frees = ULONG_MAX;
  int usable = type != MPI_DATATYPE_NULL && packable(type) && named_known(type, &predefined) &&
               PMPI_Type_size_x(type, size) == MPI_SUCCESS && *size != MPI_UNDEFINED;
  if (usable && (predefined || watch_type(type, &frees))) {
    known_types[i].type = type;
    known_types[i].size = *size;
    known_types[i].frees = frees;
    known_types[i].set = 1;
  }
  return usable;
}

int gc_datatype_usable(MPI_Datatype type, MPI_Count *size)
{
  unsigned i = type_index(type);
  if (known_types[i].set && known_types[i].type == type &&
      (known_types[i].frees == ULONG_MAX ||
       known_types[i].frees == atomic_load_explicit(&gc_datatype_frees, memory_order_relaxed))) {
    *size = known_types[i].size;
    return 1;
  }
  return usable_asked(type, size, i);
}

int gc_datatype_kept(MPI_Datatype type, unsigned long frees)
{
  unsigned i = type_index(type);
  return known_types[i].set && known_types[i].type == type &&
         (known_types[i].frees == ULONG_MAX || known_types[i].frees == frees);
}

/* Named types whose bytes are all data, and contiguous runs or duplicates of such types
 * (MPI_Type_contiguous(3, MPI_INT)): what applications broadcast in bulk. Anything else
 * (vectors, structs, resized types, a named pair type with padding) is packed. */
static int raw_at(MPI_Datatype type, int depth)
{
  MPI_Count size;
  MPI_Aint lb, extent, true_lb, true_extent;
  int ni, na, nd, combiner;
  if (depth > 8 || PMPI_Type_size_x(type, &size) != MPI_SUCCESS ||
      PMPI_Type_get_extent(type, &lb, &extent) != MPI_SUCCESS ||
      PMPI_Type_get_true_extent(type, &true_lb, &true_extent) != MPI_SUCCESS ||
      PMPI_Type_get_envelope(type, &ni, &na, &nd, &combiner) != MPI_SUCCESS)
    return 0;
  if (lb != 0 || true_lb != 0 || extent != size || true_extent != size)
    return 0;
  if (combiner == MPI_COMBINER_NAMED)
    return 1;
  if ((combiner != MPI_COMBINER_CONTIGUOUS && combiner != MPI_COMBINER_DUP) || ni > 1 ||
      na != 0 || nd != 1)
    return 0;
  int ints[1];
  MPI_Aint addrs[1];
  MPI_Datatype inner;
  if (PMPI_Type_get_contents(type, ni, na, nd, ints, addrs, &inner) != MPI_SUCCESS)
    return 0;
  int raw = raw_at(inner, depth + 1);
  /* get_contents hands out derived types as new handles, to free; named ones are not. */
  if (PMPI_Type_get_envelope(inner, &ni, &na, &nd, &combiner) == MPI_SUCCESS &&
      combiner != MPI_COMBINER_NAMED)
    PMPI_Type_free(&inner);
  return raw;
}

int gc_datatype_is_raw(MPI_Datatype type)
{
  return raw_at(type, 0);
}

/* Two elements of a strided type with holes and three ints, packed on MPI_COMM_SELF:
 * the first must come out as the ints of its type map, in order, the second as its own
 * bytes, each exactly `size` bytes per element. */
int gc_datatype_pack_is_plain(void)
{
  int src[6] = {10, 11, 12, 13, 14, 15}, out[4] = {0}, position = 0;
  const int want_vec[4] = {10, 12, 13, 15};
  MPI_Datatype vec;
  int plain = PMPI_Type_vector(2, 1, 2, MPI_INT, &vec) == MPI_SUCCESS;
  if (!plain)
    return 0;
  plain = PMPI_Type_commit(&vec) == MPI_SUCCESS &&
          PMPI_Pack(src, 2, vec, out, (int)sizeof out, &position, MPI_COMM_SELF) == MPI_SUCCESS &&
          position == (int)sizeof out && memcmp(out, want_vec, sizeof out) == 0;
  PMPI_Type_free(&vec);
  position = 0;
  return plain &&
         PMPI_Pack(src, 3, MPI_INT, out, (int)sizeof out, &position, MPI_COMM_SELF) == MPI_SUCCESS &&
         position == 3 * (int)sizeof(int) && memcmp(out, src, 3 * sizeof(int)) == 0;
}
