/* Benchmark (issue #16): is the unpinned concurrency-2 spread the arena's
 * or the kernel's? Two "games", each a thread that writes one byte to one
 * of two child processes ("engines") and waits for the answer, as
 * c-chess-cli plays (MODE 0: blocking read), as tokio waits (1: epoll_wait,
 * then read) or with poll (2). Each engine spins ~1 µs per message.
 *
 *   gcc -O2 -pthread -o /tmp/pipe_chains bench/pipe_chains.c
 *   for i in 1 2 3 4 5; do for m in 0 1; do /tmp/pipe_chains $m 100000; PIN=1 /tmp/pipe_chains $m 100000; done; done
 *
 * PIN=1 pins game i (thread and its engines) to CPU i. Prints wall time per
 * round trip and how often each game thread changed CPU. */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#include <pthread.h>
#include <sys/epoll.h>
#include <poll.h>
#include <time.h>
#include <sched.h>
static int mode, N;
static volatile long moved[4];
static void *chain(void *arg) {
  long id=(long)arg;
  int a[2], b[2], c[2], d[2];
  if (getenv("PIN")) { cpu_set_t s; CPU_ZERO(&s); CPU_SET(id, &s); sched_setaffinity(0, sizeof s, &s); }
  pipe(a); pipe(b); pipe(c); pipe(d);
  /* two "engines": each reads a byte, spins a little, answers */
  for (int e=0;e<2;e++) {
    int in = e? c[0]:a[0], out = e? d[1]:b[1];
    if (fork()==0) { char x; while (read(in,&x,1)==1) { volatile int s=0; for(int i=0;i<2000;i++) s+=i; write(out,&x,1);} _exit(0);}  
  }
  int ep=epoll_create1(0);
  struct epoll_event ev={.events=EPOLLIN};
  ev.data.fd=b[0]; epoll_ctl(ep,EPOLL_CTL_ADD,b[0],&ev);
  ev.data.fd=d[0]; epoll_ctl(ep,EPOLL_CTL_ADD,d[0],&ev);
  int last=sched_getcpu();
  for (int i=0;i<N;i++) {
    int w = (i&1)? c[1]:a[1], r=(i&1)? d[0]:b[0];
    char x='x'; write(w,&x,1);
    if (mode==1) { struct epoll_event got; epoll_wait(ep,&got,1,-1); }
    else if (mode==2) { struct pollfd p={.fd=r,.events=POLLIN}; poll(&p,1,-1); }
    read(r,&x,1);
    int cpu=sched_getcpu(); if (cpu!=last) { moved[id]++; last=cpu; }
  }
  return 0;
}
int main(int argc,char**argv){ mode=atoi(argv[1]); N=atoi(argv[2]); int T=argc>3?atoi(argv[3]):2;
  struct timespec t0,t1; clock_gettime(CLOCK_MONOTONIC,&t0);
  pthread_t th[4]; for(long i=0;i<T;i++) pthread_create(&th[i],0,chain,(void*)i);
  for(int i=0;i<T;i++) pthread_join(th[i],0);
  clock_gettime(CLOCK_MONOTONIC,&t1);
  double s=(t1.tv_sec-t0.tv_sec)+(t1.tv_nsec-t0.tv_nsec)/1e9;
  printf("mode %s: %.3f s, %.2f us/roundtrip/chain, seat moves %ld %ld\n", mode==0?"read":mode==1?"epoll":"poll", s, s*1e6/N, moved[0], moved[1]);
}
