#include "picollo_native.h"

/*
 * Valgrind client requests for callgrind, written from Valgrind's documented mechanism (valgrind.h, "client requests")
 * rather than compiled against its headers, so the library builds on a machine without Valgrind and works where Valgrind
 * is installed later. A request is a sequence of four rotations of %rdi by 3, 13, 61 and 51 bits (64 in all: %rdi is
 * unchanged, so natively the sequence does nothing) followed by "xchgq %rbx,%rbx". Valgrind's translator recognises the
 * sequence and answers the request whose six words %rax points at: the request code, then five arguments. Its result
 * comes back in %rdx, which holds the default (returned natively) on entry.
 */

#if defined(__x86_64__)

/* VG_USERREQ_TOOL_BASE('C','T') of callgrind.h: the tool's letters in the two top bytes of the code. */
#define CALLGRIND_BASE (((uint64_t)'C' << 24) | ((uint64_t)'T' << 16))
#define CALLGRIND_DUMP_STATS_AT (CALLGRIND_BASE + 3)
#define CALLGRIND_ZERO_STATS (CALLGRIND_BASE + 1)
#define CALLGRIND_TOGGLE_COLLECT (CALLGRIND_BASE + 2)
#define CALLGRIND_START_INSTRUMENTATION (CALLGRIND_BASE + 4)
#define CALLGRIND_STOP_INSTRUMENTATION (CALLGRIND_BASE + 5)

/* VG_USERREQ__RUNNING_ON_VALGRIND: answered by the core under every tool. */
#define VALGRIND_RUNNING 0x1001

static uint64_t request(uint64_t fallback, uint64_t code, uint64_t argument)
{
    volatile uint64_t words[6] = {code, argument, 0, 0, 0, 0};
    uint64_t result;
    __asm__ __volatile__("rolq $3, %%rdi ; rolq $13, %%rdi\n\t"
                         "rolq $61, %%rdi ; rolq $51, %%rdi\n\t"
                         "xchgq %%rbx, %%rbx"
                         : "=d"(result)
                         : "a"(&words[0]), "0"(fallback)
                         : "cc", "memory");
    return result;
}

int32_t picollo_sim_running(void)
{
    return (int32_t)request(0, VALGRIND_RUNNING, 0);
}

void picollo_sim_start_instrumentation(void)
{
    request(0, CALLGRIND_START_INSTRUMENTATION, 0);
}

void picollo_sim_stop_instrumentation(void)
{
    request(0, CALLGRIND_STOP_INSTRUMENTATION, 0);
}

void picollo_sim_begin(void)
{
    request(0, CALLGRIND_ZERO_STATS, 0);
    request(0, CALLGRIND_TOGGLE_COLLECT, 0);
}

void picollo_sim_end(void)
{
    request(0, CALLGRIND_TOGGLE_COLLECT, 0);
}

void picollo_sim_dump(const char *name)
{
    request(0, CALLGRIND_DUMP_STATS_AT, (uint64_t)(uintptr_t)name);
}

#else

int32_t picollo_sim_running(void) { return 0; }
void picollo_sim_start_instrumentation(void) {}
void picollo_sim_stop_instrumentation(void) {}
void picollo_sim_begin(void) {}
void picollo_sim_end(void) {}
void picollo_sim_dump(const char *name) { (void)name; }

#endif
