/*
 * main.c - schedlab's entry point; everything else is in cli_main().
 */
#include "cli/cli.h"

#ifdef __GLIBC__
#include <malloc.h>
#endif

int main(int argc, char **argv)
{
#ifdef __GLIBC__
	/* One process runs run after run (repetitions, sweeps, reproduce),
	 * each freeing all it allocated: keep that memory for the next run
	 * rather than hand it back to the kernel at every free and fault it
	 * in again (a short run's set-up was mostly page faults).  At most
	 * 64 MB of free heap is kept, and blocks of 16 MB and more are still
	 * mapped and unmapped on their own, so little of a big run's memory
	 * outlives it. */
	mallopt(M_MMAP_THRESHOLD, 16 << 20);
	mallopt(M_TRIM_THRESHOLD, 64 << 20);
#endif
	return cli_main(argc, argv);
}
