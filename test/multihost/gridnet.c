/* gridnet: the measuring instrument of test/multihost (no ping, no iperf3 needed).
 *
 *   gridnet serve PORT                     on one host: UDP echo, UDP floods on request,
 *                                          and a TCP source (writes until the peer closes)
 *   gridnet ping HOST PORT COUNT           round trips of 64-byte UDP datagrams, one at a
 *                                          time: "rtt_ms min M median M max M"
 *   gridnet tcp HOST PORT FLOWS WARM SECS  FLOWS TCP connections from the server to here;
 *                                          bytes received in SECS after WARM seconds:
 *                                          "tcp_goodput_Bps X"
 *   gridnet flood HOST PORT COUNT SIZE RATE   the server sends COUNT datagrams of SIZE
 *                                          bytes to here at RATE bytes/s (UDP payload);
 *                                          "flood sent N received R"
 *
 * Data always flows from the server to the client, so every figure is taken where the
 * data arrives: the link measured is the one from the server's cluster to the client's.
 *
 * The machine is small and shared: a process woken by a datagram may wait milliseconds
 * for a core. So that the figures are the network's and not the scheduler's, every mode
 * asks for SCHED_FIFO (below delayd's priority; each blocks in poll, in a paced sleep
 * or on a full TCP send buffer, never spins: the rate of the link they measure bounds
 * their work), a round trip ends at the kernel's receive timestamp (SO_TIMESTAMPNS), not
 * when the pinger gets to run, and TCP goodput is what the kernel received. */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <netdb.h>
#include <netinet/in.h>
#include <linux/tcp.h> /* struct tcp_info with tcpi_bytes_received */
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

static double now_s(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

/* SCHED_FIFO at a priority below delayd's 10, or nothing when refused (not root). */
static void realtime(int on) {
  struct sched_param sp = {.sched_priority = on ? 5 : 0};
  sched_setscheduler(0, on ? SCHED_FIFO : SCHED_OTHER, &sp);
}

static int resolve(const char *host, const char *port, int type, struct sockaddr_storage *ss,
                   socklen_t *len) {
  struct addrinfo hints = {.ai_family = AF_INET, .ai_socktype = type}, *res;
  int rc = getaddrinfo(host, port, &hints, &res);
  if (rc != 0) {
    fprintf(stderr, "gridnet: %s: %s\n", host, gai_strerror(rc));
    return -1;
  }
  memcpy(ss, res->ai_addr, res->ai_addrlen);
  *len = res->ai_addrlen;
  freeaddrinfo(res);
  return 0;
}

/* The server's reply to "flood COUNT SIZE RATE": COUNT datagrams paced at RATE. */
static void flood(int fd, const struct sockaddr *to, socklen_t tolen, long count, int size,
                  double rate) {
  static char buf[65536];
  struct timespec due;
  double t0 = now_s();
  if (size < 16 || size > (int)sizeof buf) return;
  memset(buf, 'f', (size_t)size);
  for (long i = 0; i < count; i++) {
    double at = t0 + (double)i * size / rate, t = now_s();
    if (at > t + 0.0002) {
      due.tv_sec = (time_t)at;
      due.tv_nsec = (long)((at - (double)due.tv_sec) * 1e9);
      clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &due, NULL);
    }
    memcpy(buf, &i, sizeof i);
    /* A full device queue (ENOBUFS) waits a little: never a spin under SCHED_FIFO. */
    while (sendto(fd, buf, (size_t)size, 0, to, tolen) < 0 && errno == ENOBUFS)
      nanosleep(&(struct timespec){.tv_nsec = 50000}, NULL);
  }
}

static int serve(const char *port) {
  struct sockaddr_in a = {.sin_family = AF_INET, .sin_port = htons((uint16_t)atoi(port))};
  int one = 1, udp = socket(AF_INET, SOCK_DGRAM, 0), tcp = socket(AF_INET, SOCK_STREAM, 0);
  static char buf[65536];
  signal(SIGCHLD, SIG_IGN);
  signal(SIGPIPE, SIG_IGN);
  prctl(PR_SET_TIMERSLACK, 1UL);
  realtime(1);
  setsockopt(tcp, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
  if (bind(udp, (struct sockaddr *)&a, sizeof a) < 0 || bind(tcp, (struct sockaddr *)&a, sizeof a) < 0 ||
      listen(tcp, 64) < 0) {
    perror("gridnet serve");
    return 1;
  }
  printf("ready\n");
  fflush(stdout);
  struct pollfd p[2] = {{.fd = udp, .events = POLLIN}, {.fd = tcp, .events = POLLIN}};
  for (;;) {
    if (poll(p, 2, -1) < 0) continue;
    if (p[0].revents & POLLIN) {
      struct sockaddr_storage from;
      socklen_t fl = sizeof from;
      ssize_t n = recvfrom(udp, buf, sizeof buf - 1, 0, (struct sockaddr *)&from, &fl);
      long count;
      int size;
      double rate;
      if (n <= 0) continue;
      buf[n] = 0;
      if (sscanf(buf, "flood %ld %d %lf", &count, &size, &rate) == 3 && rate > 0)
        flood(udp, (struct sockaddr *)&from, fl, count, size, rate);
      else
        sendto(udp, buf, (size_t)n, 0, (struct sockaddr *)&from, fl);
    }
    if (p[1].revents & POLLIN) {
      int c = accept(tcp, NULL, NULL);
      if (c < 0) continue;
      if (fork() == 0) { /* one writer per connection, until the reader closes it */
        memset(buf, 'x', sizeof buf);
        while (write(c, buf, sizeof buf) > 0) {}
        _exit(0);
      }
      close(c);
    }
  }
}

static int cmp(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

static int ping(const char *host, const char *port, int count) {
  struct sockaddr_storage ss;
  socklen_t sl;
  if (resolve(host, port, SOCK_DGRAM, &ss, &sl) < 0) return 1;
  int fd = socket(AF_INET, SOCK_DGRAM, 0), one = 1;
  if (connect(fd, (struct sockaddr *)&ss, sl) < 0) return 1;
  setsockopt(fd, SOL_SOCKET, SO_TIMESTAMPNS, &one, sizeof one);
  realtime(1);
  double *rtt = calloc((size_t)count, sizeof *rtt);
  char out[64] = "ping", in[64];
  int got = 0;
  for (int i = 0; i < count && rtt; i++) {
    struct pollfd p = {.fd = fd, .events = POLLIN};
    struct timespec sent;
    snprintf(out + 4, sizeof out - 4, " %d", i);
    clock_gettime(CLOCK_REALTIME, &sent);
    send(fd, out, sizeof out, 0);
    /* A lost ping waits at most 2 s (the rig's delays are at most 500 ms). */
    while (poll(&p, 1, 2000) == 1) {
      char cbuf[CMSG_SPACE(sizeof(struct timespec))];
      struct iovec iov = {.iov_base = in, .iov_len = sizeof in};
      struct msghdr mh = {.msg_iov = &iov, .msg_iovlen = 1, .msg_control = cbuf, .msg_controllen = sizeof cbuf};
      ssize_t n = recvmsg(fd, &mh, 0);
      struct timespec at;
      clock_gettime(CLOCK_REALTIME, &at); /* when the kernel gave no timestamp */
      for (struct cmsghdr *c = CMSG_FIRSTHDR(&mh); c; c = CMSG_NXTHDR(&mh, c))
        if (c->cmsg_level == SOL_SOCKET && c->cmsg_type == SCM_TIMESTAMPNS) memcpy(&at, CMSG_DATA(c), sizeof at);
      if (n == (ssize_t)sizeof out && memcmp(in, out, sizeof out) == 0) {
        rtt[got++] = (double)(at.tv_sec - sent.tv_sec) + (double)(at.tv_nsec - sent.tv_nsec) * 1e-9;
        break;
      }
    }
  }
  if (got == 0) {
    printf("rtt_ms none of %d answered\n", count);
    return 1;
  }
  qsort(rtt, (size_t)got, sizeof *rtt, cmp);
  printf("rtt_ms min %.4f median %.4f max %.4f answered %d\n", rtt[0] * 1e3, rtt[got / 2] * 1e3,
         rtt[got - 1] * 1e3, got);
  return 0;
}

/* Payload bytes the kernel has received on the flows so far. */
static unsigned long long received(const struct pollfd *p, int flows) {
  unsigned long long sum = 0;
  for (int i = 0; i < flows; i++) {
    struct tcp_info ti;
    socklen_t len = sizeof ti;
    if (getsockopt(p[i].fd, IPPROTO_TCP, TCP_INFO, &ti, &len) == 0) sum += ti.tcpi_bytes_received;
  }
  return sum;
}

static int tcp(const char *host, const char *port, int flows, double warm, double secs) {
  struct sockaddr_storage ss;
  socklen_t sl;
  static char buf[1 << 16];
  if (flows < 1 || flows > 64 || resolve(host, port, SOCK_STREAM, &ss, &sl) < 0) return 1;
  realtime(1);
  struct pollfd p[64];
  for (int i = 0; i < flows; i++) {
    p[i].fd = socket(AF_INET, SOCK_STREAM, 0);
    p[i].events = POLLIN;
    if (connect(p[i].fd, (struct sockaddr *)&ss, sl) < 0) {
      perror("gridnet tcp: connect");
      return 1;
    }
  }
  /* The goodput is what the kernel received in the window (tcpi_bytes_received), not
   * what this process got round to reading: a reader woken late would count bytes that
   * arrived before the window. */
  double t0 = now_s(), start = t0 + warm, end = start + secs;
  unsigned long long bytes = 0, at_start = 0;
  int started = 0;
  for (double t = t0; t < end; t = now_s()) {
    if (!started && t >= start) {
      at_start = received(p, flows);
      start = now_s();
      end = start + secs;
      started = 1;
    }
    if (poll(p, (nfds_t)flows, 10) <= 0) continue;
    for (int i = 0; i < flows; i++)
      if (p[i].revents & POLLIN) recv(p[i].fd, buf, sizeof buf, MSG_DONTWAIT);
  }
  bytes = received(p, flows) - at_start;
  printf("tcp_goodput_Bps %.0f\n", (double)bytes / secs);
  return 0;
}

static int flood_client(const char *host, const char *port, long count, int size, double rate) {
  struct sockaddr_storage ss;
  socklen_t sl;
  static char buf[65536];
  if (resolve(host, port, SOCK_DGRAM, &ss, &sl) < 0) return 1;
  realtime(1);
  int fd = socket(AF_INET, SOCK_DGRAM, 0), big = 16 << 20;
  setsockopt(fd, SOL_SOCKET, SO_RCVBUFFORCE, &big, sizeof big);
  if (connect(fd, (struct sockaddr *)&ss, sl) < 0) return 1;
  char req[128];
  int n = snprintf(req, sizeof req, "flood %ld %d %.0f", count, size, rate);
  send(fd, req, (size_t)n, 0);
  long received = 0;
  struct pollfd p = {.fd = fd, .events = POLLIN};
  /* Done after a second of silence once the flood's time is over. */
  double end = now_s() + (double)count * size / rate + 1.0;
  while (now_s() < end || poll(&p, 1, 1000) == 1) {
    if (poll(&p, 1, 100) != 1) continue;
    while (recv(fd, buf, sizeof buf, MSG_DONTWAIT) > 0) received++;
  }
  printf("flood sent %ld received %ld\n", count, received);
  return 0;
}

int main(int argc, char **argv) {
  if (argc == 3 && strcmp(argv[1], "serve") == 0) return serve(argv[2]);
  if (argc == 5 && strcmp(argv[1], "ping") == 0) return ping(argv[2], argv[3], atoi(argv[4]));
  if (argc == 7 && strcmp(argv[1], "tcp") == 0)
    return tcp(argv[2], argv[3], atoi(argv[4]), atof(argv[5]), atof(argv[6]));
  if (argc == 7 && strcmp(argv[1], "flood") == 0)
    return flood_client(argv[2], argv[3], atol(argv[4]), atoi(argv[5]), atof(argv[6]));
  fprintf(stderr, "usage: gridnet serve PORT | ping HOST PORT COUNT | tcp HOST PORT FLOWS WARM SECS |\n"
                  "       flood HOST PORT COUNT SIZE RATE\n");
  return 2;
}
