/*
 * mpi-in-single.c -- MPI+OpenMP ground-truth program for Straggler.
 * MPI_Init_thread(MPI_THREAD_SERIALIZED), run with 2 ranks x 4 OpenMP threads.
 *
 * Usage: ./mpi-in-single [both|single|single0|master]   (default: both)
 *   both    : iterations 0..9  use variant SINGLE  (MPI inside `omp single`,
 *                                                   master thread arrives last,
 *                                                   so a NON-master thread runs MPI)
 *             iterations 10..19 use variant MASTER  (MPI inside `omp master` + barrier)
 *   single  : 20 iterations of variant SINGLE
 *   single0 : 20 iterations of variant SINGLE0 (MPI inside `omp single`, but
 *             thread 0 arrives first, so normally the master executes it)
 *   master  : 20 iterations of variant MASTER
 *
 * One iteration (all sleeps are nanosleep, i.e. not instrumented, and so show
 * up as computation time in the enclosing region):
 *   #pragma omp parallel (4 threads)
 *     pre-work per thread before the construct:
 *        SINGLE : thread 0 sleeps PRE_LATE=20 ms, thread t>0 sleeps t ms
 *        SINGLE0: thread 0 sleeps 0 ms, thread t>0 sleeps PRE_LATE=20 ms
 *        MASTER : thread 0 sleeps 0 ms, thread t>0 sleeps t ms
 *     construct (single / master) executed by ONE thread per rank:
 *        rank 1: sleep D_SEND=10 ms, MPI_Send(tag 1) to rank 0
 *        rank 0: MPI_Recv(tag 1) from rank 1  -> Late Sender ~10 ms per iteration
 *        rank 0: sleep D_RED=5 ms ; rank 1: nothing
 *        both  : MPI_Allreduce(1 double)      -> Wait at NxN ~5 ms on rank 1
 *        both  : MPI_Sendrecv with the partner (tag 2), balanced -> ~0 waiting
 *     end of construct: implicit barrier (single) / explicit `omp barrier` (master)
 *
 * Expected amounts (ideal, before Score-P overhead and OS noise):
 *   per iteration: mpi_latesender  ~10 ms on rank 0 (in MPI_Recv),
 *                  mpi_wait_nxn    ~ 5 ms on rank 1 (in MPI_Allreduce),
 *                  the thread(s) not running the construct wait in the
 *                  barrier (omp_ibarrier_wait / omp_ebarrier_wait) for the
 *                  remainder of the construct: rank 0 ~15 ms - their pre-work,
 *                  rank 1 ~15 ms - their pre-work  (both ranks leave the
 *                  Allreduce at the same time).
 *   mode both   : 10 iterations of each variant -> LS ~100 ms + ~100 ms,
 *                 NxN ~50 ms + ~50 ms (Scalasca's scout.hyb rejects this trace,
 *                 see README: MPI on a non-master thread).
 *   mode master : 20 iterations -> LS ~200 ms (rank 0, thread 0),
 *                 NxN ~100 ms (rank 1, thread 0), plus the MPI_Init/Finalize skew.
 *   mode single0: same as master (if thread 0 executed every single).
 *   Per thread the program prints which thread executed each construct.
 */
#include <mpi.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define NITER     20
#define PRE_LATE  20   /* ms */
#define D_SEND    10   /* ms */
#define D_RED      5   /* ms */

enum { V_SINGLE, V_SINGLE0, V_MASTER };

static void sleep_ms(double ms)
{
    struct timespec ts;
    ts.tv_sec  = (time_t)(ms / 1000.0);
    ts.tv_nsec = (long)((ms - ts.tv_sec * 1000.0) * 1e6);
    while (nanosleep(&ts, &ts) != 0) { }
}

static void exchange(int rank, int iter, int variant, int *who)
{
    double in = rank + iter, out = 0.0, sr = 0.0;
    int partner = 1 - rank;
    *who = omp_get_thread_num();
    if (rank == 1) {
        sleep_ms(D_SEND);
        MPI_Send(&in, 1, MPI_DOUBLE, 0, 1, MPI_COMM_WORLD);
    } else {
        MPI_Recv(&out, 1, MPI_DOUBLE, 1, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        sleep_ms(D_RED);
    }
    MPI_Allreduce(&in, &out, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    MPI_Sendrecv(&in, 1, MPI_DOUBLE, partner, 2, &sr, 1, MPI_DOUBLE, partner, 2,
                 MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    (void)variant;
}

int main(int argc, char **argv)
{
    int provided, rank, size;
    const char *mode = argc > 1 ? argv[1] : "both";
    MPI_Init_thread(&argc, &argv, MPI_THREAD_SERIALIZED, &provided);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (size != 2) {
        if (rank == 0) fprintf(stderr, "needs exactly 2 ranks\n");
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    if (provided < MPI_THREAD_SERIALIZED && rank == 0)
        fprintf(stderr, "warning: MPI provides only thread level %d\n", provided);

    int who[NITER];
    for (int it = 0; it < NITER; ++it) {
        int variant;
        if (!strcmp(mode, "single"))       variant = V_SINGLE;
        else if (!strcmp(mode, "single0")) variant = V_SINGLE0;
        else if (!strcmp(mode, "master"))  variant = V_MASTER;
        else                               variant = it < NITER / 2 ? V_SINGLE : V_MASTER;

        #pragma omp parallel
        {
            int t = omp_get_thread_num();
            if (variant == V_SINGLE)
                sleep_ms(t == 0 ? PRE_LATE : t);
            else if (variant == V_SINGLE0)
                sleep_ms(t == 0 ? 0 : PRE_LATE);
            else
                sleep_ms(t == 0 ? 0 : t);

            if (variant == V_MASTER) {
                #pragma omp master
                exchange(rank, it, variant, &who[it]);
                #pragma omp barrier
            } else {
                #pragma omp single
                exchange(rank, it, variant, &who[it]);
            }
        }
    }
    for (int it = 0; it < NITER; ++it)
        printf("rank %d iter %2d: construct executed by thread %d\n", rank, it, who[it]);
    MPI_Finalize();
    return 0;
}
