/*
 * Per-thread CPU timers as async-profiler's `ctimer` uses them, without a JVM: does the kernel deliver one signal
 * per interval of a thread's CPU time? Each thread arms a POSIX timer on its own CPU clock (SIGEV_THREAD_ID), burns
 * CPU, and counts the signals it gets and the expirations the kernel reports as merged into them (si_overrun).
 *
 *   gcc -O2 -pthread -o /tmp/cpu-timer-overruns benchmarks/probes/cpu-timer-overruns.c
 *   /tmp/cpu-timer-overruns THREADS SECONDS [CLOCK_READ_EVERY]
 *
 * CLOCK_READ_EVERY (0: never) makes each thread read its own CPU clock after that many loop rounds, as a JVM thread
 * asking for its CPU time does. benchmarks/DECISIONS.md (ctimer) says what it showed.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#define INTERVAL_NANOS 10000000L

static volatile int stop;
static long read_every;
static __thread volatile long signals_seen;
static __thread volatile long expirations_merged;

struct outcome {
	double cpu_seconds;
	long signals;
	long merged;
};

static void on_timer(int signo, siginfo_t *info, void *context) {
	(void) signo;
	(void) context;
	signals_seen++;
	expirations_merged += info->si_overrun;
}

static void *burn(void *arg) {
	struct outcome *outcome = arg;
	struct sigevent event;
	memset(&event, 0, sizeof event);
	event.sigev_notify = SIGEV_THREAD_ID;
	event.sigev_signo = SIGPROF;
	event._sigev_un._tid = (pid_t) syscall(SYS_gettid);
	clockid_t clock;
	timer_t timer;
	pthread_getcpuclockid(pthread_self(), &clock);
	if (timer_create(clock, &event, &timer) != 0) {
		perror("timer_create");
		exit(1);
	}
	struct itimerspec every = { { 0, INTERVAL_NANOS }, { 0, INTERVAL_NANOS } };
	timer_settime(timer, 0, &every, NULL);
	volatile double sink = 0;
	long rounds = 0;
	while (!stop) {
		sink += (double) rounds * 0.5;
		if (read_every > 0 && ++rounds % read_every == 0) {
			struct timespec now;
			clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now);
		}
	}
	struct itimerspec off = { { 0, 0 }, { 0, 0 } };
	timer_settime(timer, 0, &off, NULL);
	timer_delete(timer);
	struct timespec used;
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &used);
	outcome->cpu_seconds = used.tv_sec + used.tv_nsec / 1e9;
	outcome->signals = signals_seen;
	outcome->merged = expirations_merged;
	return NULL;
}

int main(int argc, char **argv) {
	if (argc < 3) {
		fprintf(stderr, "usage: %s THREADS SECONDS [CLOCK_READ_EVERY]\n", argv[0]);
		return 2;
	}
	int threads = atoi(argv[1]);
	int seconds = atoi(argv[2]);
	read_every = (argc > 3) ? atol(argv[3]) : 0;
	struct sigaction action;
	memset(&action, 0, sizeof action);
	action.sa_sigaction = on_timer;
	action.sa_flags = SA_SIGINFO | SA_RESTART;
	sigaction(SIGPROF, &action, NULL);
	pthread_t *ids = calloc(threads, sizeof *ids);
	struct outcome *outcomes = calloc(threads, sizeof *outcomes);
	for (int i = 0; i < threads; i++) {
		pthread_create(&ids[i], NULL, burn, &outcomes[i]);
	}
	sleep(seconds);
	stop = 1;
	double expected = 0;
	long signals = 0;
	long merged = 0;
	for (int i = 0; i < threads; i++) {
		pthread_join(ids[i], NULL);
		expected += outcomes[i].cpu_seconds * 1e9 / INTERVAL_NANOS;
		signals += outcomes[i].signals;
		merged += outcomes[i].merged;
	}
	printf("%d threads, clock read every %ld rounds: %ld signals, %.0f expected from CPU time (%.3f); "
			"%ld expirations merged into a pending signal (signals + merged: %.3f)\n",
			threads, read_every, signals, expected, signals / expected, merged, (signals + merged) / expected);
	return 0;
}
