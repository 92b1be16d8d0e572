/* gridcoll-calibrate --from-log: the configuration the run used, refitted from its
 * records (fromlog.c), written to -o with what changed and by how much. Rank 0 alone. */
#include <stdlib.h>
#include <string.h>
#include <errno.h>

#include "calibrate.h"
#include "fromlog.h"

static void report(const char *what, const struct gc_refit_level *l)
{
  if (l->used == 0)
    return;
  if (!l->ok) {
    say("  %s: %d records: refused: %s; to do: %s", what, l->used, l->v.why, l->v.todo);
    return;
  }
  say("  %s: %d records: start-up x%.3g, per byte x%.3g; median error %.1f%% -> %.1f%%", what,
      l->used, l->x, l->y, 100 * l->before, 100 * l->after);
  if (l->v.level == GC_FIT_SUSPECT)
    say("  warning: %s: suspect: %s; to do: %s", what, l->v.why, l->v.todo);
}

int calibrate_from_log(const struct options *o)
{
  struct gc_log_record *rec = NULL;
  int n = 0, rc = 1;
  char err[GC_ERR_MAX];
  struct gc_config cfg;
  gc_config_defaults(&cfg);
  if (gc_config_load(&cfg, o->config, NULL, err, sizeof err) != 0) {
    say("%s", err);
    goto out;
  }
  for (int i = 0; i < o->nlogs; i++) {
    say("reading %s (%d of %d)", o->logs[i], i + 1, o->nlogs);
    if (gc_log_read(o->logs[i], &rec, &n, err, sizeof err) != 0) {
      say("%s; nothing written", err);
      goto out;
    }
  }
  struct gc_refit fit;
  if (gc_refit_records(rec, n, &fit, err, sizeof err) != 0) {
    say("%s; nothing written", err);
    goto out;
  }
  gc_refit_check_limits(&cfg, &fit); /* what would not load is not written */
  say("refit of %s from %d records (%d left out: a kind of call seen at one size only):",
      o->config, fit.records, fit.skipped);
  report("calls inside one cluster (lan: alpha, delta; beta)", &fit.level[GC_REFIT_LAN]);
  report("calls across clusters (wan: latency; bandwidths)", &fit.level[GC_REFIT_WAN]);
  gc_refit_apply(&cfg, &fit);
  char header[1024];
  snprintf(header, sizeof header,
           "gridcoll configuration refitted by " PROG " --from-log from %s and %d\n"
           "records of %d log file(s). lan: %s x%.4g start-up, x%.4g per byte (median error\n"
           "%.1f%% -> %.1f%%); wan: %s x%.4g start-up, x%.4g per byte (%.1f%% -> %.1f%%).\n",
           o->config, fit.records, o->nlogs,
           fit.level[GC_REFIT_LAN].ok ? "refitted" : "unchanged", fit.level[GC_REFIT_LAN].x,
           fit.level[GC_REFIT_LAN].y, 100 * fit.level[GC_REFIT_LAN].before,
           100 * fit.level[GC_REFIT_LAN].after,
           fit.level[GC_REFIT_WAN].ok ? "refitted" : "unchanged", fit.level[GC_REFIT_WAN].x,
           fit.level[GC_REFIT_WAN].y, 100 * fit.level[GC_REFIT_WAN].before,
           100 * fit.level[GC_REFIT_WAN].after);
  FILE *f = fopen(o->out, "w");
  if (!f) {
    say("cannot write %s: %s", o->out, strerror(errno));
    goto out;
  }
  int bad = gc_config_write(f, &cfg, header) != 0;
  if (fclose(f) != 0 || bad) {
    say("cannot write %s", o->out);
    remove(o->out);
    goto out;
  }
  struct gc_config check;
  gc_config_defaults(&check);
  if (gc_config_load(&check, o->out, NULL, err, sizeof err) != 0)
    say("internal error: gridcoll's loader rejects the file written: %s", err);
  else {
    say("wrote %s (accepted by gridcoll's loader)", o->out);
    rc = 0;
  }
  gc_config_free(&check);
out:
  free(rec);
  gc_config_free(&cfg);
  return rc;
}
