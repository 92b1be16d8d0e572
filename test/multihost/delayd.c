/* delayd: the wide area of the namespace grid (scripts/grid-up), in user space, because
 * this kernel has no netem (nor fq, etf, sfq, codel, red: only tbf, htb, pfifo, bfifo).
 *
 * One process serves every link. It runs in the backbone namespace and owns one veth end
 * per cluster router (gc-bb's `ra`, `rb`, ...) through an AF_PACKET socket, with no
 * bridge there: it is the backbone. Each ordered pair of ports (i, j) is one link with a
 * one-way delay, a rate and a queue of so many bytes, like a wide-area path:
 *
 *   a frame from port i for port j arriving at `now`:
 *     backlog  = bytes still waiting to be serialised = (busy_until - now) * rate
 *     backlog + len > queue   -> dropped (tail drop), counted
 *     otherwise start = max(now, busy_until); busy_until = start + len / rate
 *               due   = busy_until + delay        (serialised, then propagated)
 *
 * Since a link's delay is constant, its frames become due in arrival order: each link is
 * a FIFO and the next wake-up is the earliest head of a handful of FIFOs; ppoll sleeps
 * until then or until a frame arrives (no busy loop; timer slack 1 ns so a 0.1 ms delay
 * is kept). Destinations are learnt from source MAC addresses as a bridge does (the
 * routers' ARP requests are flooded, over the links too, so they pay the delay).
 *
 * Frames keep their virtio-net header (PACKET_VNET_HDR) from reception to sending: the
 * hosts' checksum offload (CHECKSUM_PARTIAL) then survives the trip, as through a tap.
 *
 * usage: delayd -s STATS [-r] [-e US] -i IFACE... -l I,J,DELAY_S,RATE_BYTES_S,QUEUE_BYTES...
 *   -i IFACE   a port (in order: port 0, 1, ...)
 *   -l ...     link from port I to port J (every ordered pair must be given)
 *   -s STATS   counters written there (text, replaced atomically) every 100 ms when
 *              they changed and at exit; written once at start: the stage is ready
 *   -e US      wake and send up to US microseconds before a frame is due (default:
 *              the timer's measured mean lateness, starting at 50)
 *   -r         ask for SCHED_FIFO (the stage is the network: busy-polling MPI ranks on
 *              the same cores must not delay its frames); a warning if refused
 * Ends on SIGTERM or SIGINT. */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <linux/if_packet.h>
#include <linux/virtio_net.h>
#include <net/ethernet.h>
#include <net/if.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#define MAX_PORTS 16
#define MAX_MACS 256
#define FRAME_MAX (65536 + sizeof(struct virtio_net_hdr))
#define RX_BATCH 64 /* frames read from one port before looking at the others */
#define STATS_PERIOD_NS 100000000ULL

struct frame {
  struct frame *next;
  uint64_t due; /* ns, CLOCK_MONOTONIC */
  size_t len;   /* bytes in data, virtio-net header included */
  unsigned char data[];
};

struct link {
  int used;
  uint64_t delay_ns;
  double ns_per_byte; /* 1e9 / rate */
  uint64_t queue;     /* bytes */
  uint64_t busy_until;
  struct frame *head, *tail;
  uint64_t sent_pkts, sent_bytes, drop_pkts, drop_bytes, max_backlog;
  int64_t late_ns;      /* sum of (sent - due), negative when early: the stage's own error */
  uint64_t max_late_ns; /* worst lateness */
};

struct port {
  char name[IF_NAMESIZE];
  int fd, ifindex;
  uint64_t kernel_drops; /* PACKET_STATISTICS: frames the socket had no room for */
};

static struct port ports[MAX_PORTS];
static int nports;
static struct link links[MAX_PORTS][MAX_PORTS];
static struct {
  unsigned char mac[6];
  int port;
} macs[MAX_MACS];
static int nmacs;
static uint64_t flood_pkts;
static volatile sig_atomic_t stop;
/* A frame leaves when the stage is awake at most this long before it is due, and the
 * stage asks to wake this long before the next frame is due: a timer wakes even a
 * SCHED_FIFO task late, 50-130 us on the virtual machine this was measured on (2026-11,
 * under load; longer sleeps wake later). early_ns follows the lateness of the timer
 * wake-ups (a moving average), so that frames leave on time on average; the stats file
 * reports each link's mean and worst lateness. -e fixes it instead. */
static uint64_t early_ns = 50000;
static int early_fixed;

static uint64_t now_ns(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (uint64_t)t.tv_sec * 1000000000ULL + (uint64_t)t.tv_nsec;
}

static void on_signal(int sig) {
  (void)sig;
  stop = 1;
}

static int open_port(struct port *p) {
  int one = 1, big = 8 << 20;
  struct sockaddr_ll sll = {0};
  p->ifindex = (int)if_nametoindex(p->name);
  if (p->ifindex == 0) {
    fprintf(stderr, "delayd: no interface %s\n", p->name);
    return -1;
  }
  p->fd = socket(AF_PACKET, SOCK_RAW | SOCK_NONBLOCK | SOCK_CLOEXEC, htons(ETH_P_ALL));
  if (p->fd < 0) {
    perror("delayd: socket(AF_PACKET)");
    return -1;
  }
  /* Bursts arrive while the stage sleeps or is descheduled: a deep receive buffer keeps
   * them (what it cannot keep, PACKET_STATISTICS counts and the stats file reports). */
  if (setsockopt(p->fd, SOL_SOCKET, SO_RCVBUFFORCE, &big, sizeof big) < 0)
    setsockopt(p->fd, SOL_SOCKET, SO_RCVBUF, &big, sizeof big);
  setsockopt(p->fd, SOL_SOCKET, SO_SNDBUFFORCE, &big, sizeof big);
  if (setsockopt(p->fd, SOL_PACKET, PACKET_VNET_HDR, &one, sizeof one) < 0) {
    perror("delayd: PACKET_VNET_HDR");
    return -1;
  }
  setsockopt(p->fd, SOL_SOCKET, SO_TIMESTAMPNS, &one, sizeof one);
  /* Our own sends on this port would otherwise come back as outgoing frames. */
  setsockopt(p->fd, SOL_PACKET, PACKET_IGNORE_OUTGOING, &one, sizeof one);
  sll.sll_family = AF_PACKET;
  sll.sll_protocol = htons(ETH_P_ALL);
  sll.sll_ifindex = p->ifindex;
  if (bind(p->fd, (struct sockaddr *)&sll, sizeof sll) < 0) {
    perror("delayd: bind");
    return -1;
  }
  return 0;
}

static int mac_port(const unsigned char *mac) {
  for (int i = 0; i < nmacs; i++)
    if (memcmp(macs[i].mac, mac, 6) == 0) return macs[i].port;
  return -1;
}

static void mac_learn(const unsigned char *mac, int port) {
  if (mac[0] & 1) return; /* a group address is never a source */
  for (int i = 0; i < nmacs; i++)
    if (memcmp(macs[i].mac, mac, 6) == 0) {
      macs[i].port = port;
      return;
    }
  if (nmacs < MAX_MACS) {
    memcpy(macs[nmacs].mac, mac, 6);
    macs[nmacs++].port = port;
  }
}

/* Queue a copy of the frame on link (from, to), or count it dropped. */
static void enqueue(int from, int to, const unsigned char *buf, size_t len, uint64_t now) {
  struct link *l = &links[from][to];
  size_t wire = len - sizeof(struct virtio_net_hdr);
  uint64_t backlog = 0, start;
  if (l->busy_until > now) backlog = (uint64_t)((double)(l->busy_until - now) / l->ns_per_byte);
  if (backlog + wire > l->queue) {
    l->drop_pkts++;
    l->drop_bytes += wire;
    return;
  }
  struct frame *f = malloc(sizeof *f + len);
  if (!f) { /* no memory is a full queue */
    l->drop_pkts++;
    l->drop_bytes += wire;
    return;
  }
  if (backlog + wire > l->max_backlog) l->max_backlog = backlog + wire;
  start = l->busy_until > now ? l->busy_until : now;
  l->busy_until = start + (uint64_t)((double)wire * l->ns_per_byte);
  f->due = l->busy_until + l->delay_ns;
  f->len = len;
  f->next = NULL;
  memcpy(f->data, buf, len);
  if (l->tail)
    l->tail->next = f;
  else
    l->head = f;
  l->tail = f;
}

/* When the frame reached the socket, on CLOCK_MONOTONIC: the kernel's receive timestamp
 * (SO_TIMESTAMPNS, CLOCK_REALTIME) moved to the monotonic clock, so that the time the
 * stage took to wake up is not added to the frame's delay. */
static uint64_t arrival(struct msghdr *mh) {
  struct timespec real;
  uint64_t mono = now_ns();
  clock_gettime(CLOCK_REALTIME, &real);
  for (struct cmsghdr *c = CMSG_FIRSTHDR(mh); c; c = CMSG_NXTHDR(mh, c))
    if (c->cmsg_level == SOL_SOCKET && c->cmsg_type == SCM_TIMESTAMPNS) {
      struct timespec ts;
      memcpy(&ts, CMSG_DATA(c), sizeof ts);
      int64_t ago = (int64_t)(real.tv_sec - ts.tv_sec) * 1000000000LL + (real.tv_nsec - ts.tv_nsec);
      if (ago > 0 && (uint64_t)ago < mono) return mono - (uint64_t)ago;
    }
  return mono;
}

static void receive(int from) {
  static unsigned char buf[FRAME_MAX];
  char cbuf[CMSG_SPACE(sizeof(struct timespec)) + CMSG_SPACE(sizeof(struct tpacket_auxdata))];
  for (int n = 0; n < RX_BATCH; n++) {
    struct iovec iov = {.iov_base = buf, .iov_len = sizeof buf};
    struct msghdr mh = {.msg_iov = &iov, .msg_iovlen = 1, .msg_control = cbuf, .msg_controllen = sizeof cbuf};
    ssize_t got = recvmsg(ports[from].fd, &mh, MSG_DONTWAIT);
    if (got < 0) return; /* EAGAIN: drained */
    size_t hdr = sizeof(struct virtio_net_hdr);
    if ((size_t)got < hdr + ETH_HLEN) continue;
    const unsigned char *eth = buf + hdr;
    uint64_t now = arrival(&mh);
    mac_learn(eth + 6, from);
    int to = (eth[0] & 1) ? -1 : mac_port(eth);
    if (to == from) continue; /* already on its segment */
    if (to >= 0) {
      enqueue(from, to, buf, (size_t)got, now);
      continue;
    }
    flood_pkts++;
    for (int j = 0; j < nports; j++)
      if (j != from) enqueue(from, j, buf, (size_t)got, now);
  }
}

/* Send every frame that is due; returns the earliest due time left (UINT64_MAX: none). */
static uint64_t release(uint64_t now) {
  uint64_t next = UINT64_MAX;
  now += early_ns;
  for (int i = 0; i < nports; i++)
    for (int j = 0; j < nports; j++) {
      struct link *l = &links[i][j];
      while (l->head && l->head->due <= now) {
        struct frame *f = l->head;
        l->head = f->next;
        if (!l->head) l->tail = NULL;
        size_t wire = f->len - sizeof(struct virtio_net_hdr);
        if (send(ports[j].fd, f->data, f->len, MSG_DONTWAIT) == (ssize_t)f->len) {
          l->sent_pkts++;
          l->sent_bytes += wire;
          int64_t late = (int64_t)(now - early_ns - f->due);
          l->late_ns += late;
          if (late > (int64_t)l->max_late_ns) l->max_late_ns = (uint64_t)late;
        } else { /* the veth refused it: a loss like any other, counted */
          l->drop_pkts++;
          l->drop_bytes += wire;
        }
        free(f);
      }
      if (l->head && l->head->due < next) next = l->head->due;
    }
  return next == UINT64_MAX ? next : next - early_ns;
}

static void write_stats(const char *path) {
  char tmp[4096];
  snprintf(tmp, sizeof tmp, "%s.tmp", path);
  FILE *f = fopen(tmp, "w");
  if (!f) return;
  fprintf(f, "# link FROM TO sent_pkts sent_bytes dropped_pkts dropped_bytes max_backlog_bytes "
             "mean_late_us max_late_us\n");
  for (int i = 0; i < nports; i++)
    for (int j = 0; j < nports; j++) {
      struct link *l = &links[i][j];
      if (i == j) continue;
      fprintf(f, "link %s %s %llu %llu %llu %llu %llu %.1f %.1f\n", ports[i].name, ports[j].name,
              (unsigned long long)l->sent_pkts, (unsigned long long)l->sent_bytes,
              (unsigned long long)l->drop_pkts, (unsigned long long)l->drop_bytes,
              (unsigned long long)l->max_backlog,
              l->sent_pkts ? (double)l->late_ns / (double)l->sent_pkts / 1e3 : 0.0,
              (double)l->max_late_ns / 1e3);
    }
  for (int i = 0; i < nports; i++) {
    struct tpacket_stats st;
    socklen_t sl = sizeof st;
    /* Reading PACKET_STATISTICS resets it: accumulate. */
    if (getsockopt(ports[i].fd, SOL_PACKET, PACKET_STATISTICS, &st, &sl) == 0)
      ports[i].kernel_drops += st.tp_drops;
    fprintf(f, "port %s socket_drops %llu\n", ports[i].name, (unsigned long long)ports[i].kernel_drops);
  }
  fprintf(f, "flooded %llu\n", (unsigned long long)flood_pkts);
  fclose(f);
  rename(tmp, path);
}

static uint64_t stats_sum(void) {
  uint64_t s = flood_pkts;
  for (int i = 0; i < nports; i++)
    for (int j = 0; j < nports; j++) s += links[i][j].sent_pkts + links[i][j].drop_pkts;
  return s;
}

static int parse_link(const char *arg) {
  int i, j;
  double delay, rate, queue;
  if (sscanf(arg, "%d,%d,%lf,%lf,%lf", &i, &j, &delay, &rate, &queue) != 5 || i < 0 ||
      j < 0 || i >= MAX_PORTS || j >= MAX_PORTS || i == j || delay < 0 || delay > 10 ||
      rate <= 0 || queue < 1514) {
    fprintf(stderr, "delayd: -l %s: expected I,J,DELAY_S,RATE_BYTES_S,QUEUE_BYTES (queue >= 1514)\n", arg);
    return -1;
  }
  links[i][j].used = 1;
  links[i][j].delay_ns = (uint64_t)(delay * 1e9 + 0.5);
  links[i][j].ns_per_byte = 1e9 / rate;
  links[i][j].queue = (uint64_t)queue;
  return 0;
}

int main(int argc, char **argv) {
  const char *stats = NULL;
  int rt = 0, opt;
  while ((opt = getopt(argc, argv, "s:ri:l:e:")) != -1) {
    switch (opt) {
    case 'e':
      early_ns = (uint64_t)(atof(optarg) * 1e3);
      early_fixed = 1;
      break;
    case 's': stats = optarg; break;
    case 'r': rt = 1; break;
    case 'i':
      if (nports == MAX_PORTS || strlen(optarg) >= IF_NAMESIZE) {
        fprintf(stderr, "delayd: at most %d ports of short names\n", MAX_PORTS);
        return 2;
      }
      strcpy(ports[nports++].name, optarg);
      break;
    case 'l':
      if (parse_link(optarg) < 0) return 2;
      break;
    default:
      fprintf(stderr, "usage: delayd -s STATS [-r] [-e US] -i IFACE... -l I,J,DELAY_S,RATE_BYTES_S,QUEUE_BYTES...\n");
      return 2;
    }
  }
  if (!stats || nports < 2) {
    fprintf(stderr, "delayd: needs -s STATS and at least two -i ports\n");
    return 2;
  }
  for (int i = 0; i < nports; i++)
    for (int j = 0; j < nports; j++)
      if (i != j && !links[i][j].used) {
        fprintf(stderr, "delayd: no -l for the link %d -> %d\n", i, j);
        return 2;
      }
  for (int i = 0; i < nports; i++)
    if (open_port(&ports[i]) < 0) return 1;
  prctl(PR_SET_TIMERSLACK, 1UL);
  if (rt) {
    struct sched_param sp = {.sched_priority = 10};
    if (sched_setscheduler(0, SCHED_FIFO, &sp) < 0) perror("delayd: SCHED_FIFO refused, running at normal priority");
  }
  sigset_t block, wait_mask;
  sigemptyset(&block);
  sigaddset(&block, SIGTERM);
  sigaddset(&block, SIGINT);
  sigprocmask(SIG_BLOCK, &block, &wait_mask);
  sigdelset(&wait_mask, SIGTERM);
  sigdelset(&wait_mask, SIGINT);
  struct sigaction sa = {.sa_handler = on_signal};
  sigaction(SIGTERM, &sa, NULL);
  sigaction(SIGINT, &sa, NULL);

  struct pollfd pfd[MAX_PORTS];
  for (int i = 0; i < nports; i++) pfd[i] = (struct pollfd){.fd = ports[i].fd, .events = POLLIN};
  write_stats(stats);
  uint64_t last_stats = now_ns(), stats_seen = stats_sum();
  while (!stop) {
    uint64_t now = now_ns();
    uint64_t next = release(now);
    uint64_t sum = stats_sum();
    if (sum != stats_seen && now - last_stats >= STATS_PERIOD_NS) {
      write_stats(stats);
      stats_seen = sum;
      last_stats = now;
    }
    if (sum != stats_seen && last_stats + STATS_PERIOD_NS < next) next = last_stats + STATS_PERIOD_NS;
    struct timespec ts, *tsp = NULL;
    if (next != UINT64_MAX) {
      uint64_t wait = next > now ? next - now : 0;
      ts.tv_sec = (time_t)(wait / 1000000000ULL);
      ts.tv_nsec = (long)(wait % 1000000000ULL);
      tsp = &ts;
    }
    int n = ppoll(pfd, (nfds_t)nports, tsp, &wait_mask);
    if (n < 0 && errno != EINTR) {
      perror("delayd: ppoll");
      break;
    }
    if (n == 0 && tsp && !early_fixed) { /* woken by the timer: how late? */
      uint64_t woke = now_ns(), want = next > now ? next : now;
      uint64_t late = woke > want ? woke - want : 0;
      if (late < 1000000) early_ns = (7 * early_ns + late) / 8;
    }
    for (int i = 0; n > 0 && i < nports; i++)
      if (pfd[i].revents & POLLIN) receive(i);
  }
  write_stats(stats);
  return 0;
}
