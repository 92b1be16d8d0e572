/* Round-robin pairing (circle method) and symmetrising: see probe_schedule.h. */
#include "probe_schedule.h"

#include "physical.h"

int gc_probe_rounds(int k)
{
  if (k < 2)
    return 0;
  return k % 2 == 0 ? k - 1 : k;
}

/* Circle method on n = k rounded up to even players: player n-1 stays put and meets
 * player r in round r; the others sit on a circle of n-1 and player i meets
 * (2r - i) mod (n-1), which is never i since n-1 is odd and i != r. With k odd,
 * player n-1 = k is a dummy: meeting it means sitting the round out. */
int gc_probe_partner(int k, int r, int c)
{
  int rounds = gc_probe_rounds(k);
  if (r < 0 || r >= rounds || c < 0 || c >= k)
    return -1;
  int n = k % 2 == 0 ? k : k + 1, fixed = n - 1, p;
  if (c == fixed)
    p = r;
  else if (c == r)
    p = fixed;
  else
    p = ((2 * r - c) % fixed + fixed) % fixed;
  return p < k ? p : -1;
}

/* A measured latency the network view may take: what the loader would accept of a
 * configured one (config/physical.c). Above an hour, or not a number, it measured a
 * clock gone wrong, not the network: not measured. Under 1 ns, the loader's shortest. */
static double measured(double x)
{
  if (!(x > 0 && x <= GC_PHYSICAL_TIME_MAX))
    return 0;
  return x < GC_PHYSICAL_TIME_MIN ? GC_PHYSICAL_TIME_MIN : x;
}

int gc_probe_symmetrise(int k, double *lat)
{
  int missing = 0;
  for (int a = 0; a < k; a++)
    for (int b = a + 1; b < k; b++) {
      double x = measured(lat[a * k + b]), y = measured(lat[b * k + a]), v;
      if (x > 0 && y > 0)
        v = x < y ? x : y;
      else
        v = x > 0 ? x : y > 0 ? y : 0;
      missing += !(v > 0);
      lat[a * k + b] = lat[b * k + a] = v;
    }
  return missing;
}
