/*
 * libpicollo_native: the few instructions .NET cannot emit (rdtsc, rdtscp, lfence, rdpmc), for x86-64 Linux.
 * Every export uses fixed-width types only and never blocks, so the managed side may call the readers
 * with SuppressGCTransition.
 */
#ifndef PICOLLO_NATIVE_H
#define PICOLLO_NATIVE_H

#include <stdint.h>

#define PICOLLO_EXPORT __attribute__((visibility("default")))

/* Bumped whenever an export changes; the managed loader refuses a library with another version. */
#define PICOLLO_ABI_VERSION 1

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

#endif
