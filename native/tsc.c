#include "picollo_native.h"

int32_t picollo_abi_version(void)
{
    return PICOLLO_ABI_VERSION;
}

uint64_t picollo_tsc_start(void)
{
    uint32_t lo, hi;
    __asm__ __volatile__("lfence\n\trdtsc" : "=a"(lo), "=d"(hi) : : "memory");
    return ((uint64_t)hi << 32) | lo;
}

uint64_t picollo_tsc_end(void)
{
    uint32_t lo, hi, aux;
    __asm__ __volatile__("rdtscp\n\tlfence" : "=a"(lo), "=d"(hi), "=c"(aux) : : "memory");
    (void)aux; /* IA32_TSC_AUX (the CPU number on Linux): not needed for the timestamp */
    return ((uint64_t)hi << 32) | lo;
}
