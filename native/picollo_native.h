/*
 * libpicollo_native: the few instructions .NET cannot emit (rdtsc, rdtscp, lfence, rdpmc, Valgrind's client requests),
 * for x86-64 Linux.
 * Every export uses fixed-width types only and never blocks, so the managed side may call the readers
 * with SuppressGCTransition.
 */
#ifndef PICOLLO_NATIVE_H
#define PICOLLO_NATIVE_H

#include <stdint.h>

#define PICOLLO_EXPORT __attribute__((visibility("default")))

/* Bumped whenever an export changes; the managed loader refuses a library with another version. */
#define PICOLLO_ABI_VERSION 3

/* Returns PICOLLO_ABI_VERSION of the library actually loaded. */
PICOLLO_EXPORT int32_t picollo_abi_version(void);

/*
 * Start-of-region timestamp: lfence; rdtsc. The lfence keeps rdtsc from executing before earlier
 * instructions have completed, so the measured region cannot leak in front of it.
 */
PICOLLO_EXPORT uint64_t picollo_tsc_start(void);

/*
 * End-of-region timestamp: rdtscp; lfence. rdtscp waits for all earlier instructions to complete;
 * the trailing lfence keeps later instructions from starting before the counter is read.
 */
PICOLLO_EXPORT uint64_t picollo_tsc_end(void);

/*
 * ---- perf_event self-monitoring (rdpmc) reader, native/perf_mmap.c ----
 *
 * A perf event fd can be mmap'ed; its first page (struct perf_event_mmap_page, linux/perf_event.h)
 * lets the monitored thread read the counter without a syscall: rdpmc(index - 1), sign-extended by
 * pmc_width, plus offset, inside the page's seqlock. The kernel only allows it when cap_user_rdpmc is
 * set and index != 0 (the event is live on a hardware counter); otherwise rdpmc faults (SIGSEGV), so
 * these functions return PICOLLO_PERF_USE_READ and never execute it.
 */

/* Status of the readers below. */
#define PICOLLO_PERF_OK 0            /* every value was written */
#define PICOLLO_PERF_USE_READ 1      /* a page forbids rdpmc (cap_user_rdpmc == 0 or index == 0): use read() */
#define PICOLLO_PERF_CONTENDED 2     /* the seqlock kept changing for PICOLLO_PERF_MAX_RETRIES rounds: use read() */
#define PICOLLO_PERF_NOT_SUPPORTED 3 /* not x86-64: there is no rdpmc */
#define PICOLLO_PERF_INVALID 4       /* null pointer or negative count */

/* Seqlock rounds before giving up; the kernel updates a page only around a context switch of the reader. */
#define PICOLLO_PERF_MAX_RETRIES 1000

/* One counter as the kernel would report it through read(): raw count (not yet scaled) and its times in ns. */
typedef struct picollo_perf_value
{
    uint64_t count;   /* offset + sign-extended pmc */
    uint64_t enabled; /* time_enabled, extended to now when cap_user_time */
    uint64_t running; /* time_running, extended to now when cap_user_time and the event is live */
} picollo_perf_value;

/*
 * The pure arithmetic of one read, without rdpmc/rdtsc: given a page (any memory with the kernel's
 * layout), the raw value rdpmc would have returned and the raw TSC, computes *out as the reader would.
 * Returns PICOLLO_PERF_USE_READ (and leaves *out untouched) when the page forbids rdpmc. No seqlock:
 * the caller owns the page. Exists so tests can drive the math on synthetic pages.
 */
PICOLLO_EXPORT int32_t picollo_perf_mmap_compute(const void *page, uint64_t raw_pmc, uint64_t tsc, picollo_perf_value *out);

/*
 * Reads a whole group from the mmap'ed first pages of its fds (pages[i] for counter i) into out[i],
 * each page under its own seqlock. The group is not read atomically (a read() of PERF_FORMAT_GROUP
 * is): the counters are read back to back, some ns apart. Returns PICOLLO_PERF_OK, or another status
 * with out[] partially written and to be ignored.
 */
PICOLLO_EXPORT int32_t picollo_perf_mmap_read_group(const void *const *pages, int32_t count, picollo_perf_value *out);

/*
 * ---- callgrind client requests (simulated counters), native/callgrind.c ----
 *
 * Natively each of these is a few instructions that do nothing (picollo_sim_running returns 0); under
 * valgrind --tool=callgrind they steer what callgrind counts. Only the measuring thread's counts matter: run callgrind
 * with --separate-threads=yes, so a dump holds the calling thread's counts alone.
 */

/* RUNNING_ON_VALGRIND: 0 natively, else how many Valgrinds run this process (1, or more when nested). */
PICOLLO_EXPORT int32_t picollo_sim_running(void);

/* CALLGRIND_START_INSTRUMENTATION: with --instr-atstart=no, start simulating (and counting) from here on. */
PICOLLO_EXPORT void picollo_sim_start_instrumentation(void);

/* CALLGRIND_STOP_INSTRUMENTATION: stop simulating; what follows runs at Valgrind's uninstrumented speed again. */
PICOLLO_EXPORT void picollo_sim_stop_instrumentation(void);

/* CALLGRIND_ZERO_STATS then CALLGRIND_TOGGLE_COLLECT: a region's counts start at 0 and are collected from here. */
PICOLLO_EXPORT void picollo_sim_begin(void);

/* CALLGRIND_TOGGLE_COLLECT: the region ends; nothing after this is collected. */
PICOLLO_EXPORT void picollo_sim_end(void);

/* CALLGRIND_DUMP_STATS_AT(name): writes the calling thread's counts since the last zero to the output file, named. */
PICOLLO_EXPORT void picollo_sim_dump(const char *name);

#endif
