/*
 * Imbalance that crosses the two levels (Straggler's recorded sample "hybrid-cross"): 2 ranks x 4 OpenMP threads,
 * 4 iterations. In each, every thread of both ranks computes in a parallel region; on rank 0 one thread (which one
 * changes with the iteration) computes three times as long, so its team waits at the implicit barrier. Then the
 * masters exchange: rank 0 sends to rank 1, which has been waiting in MPI_Recv (Late Sender, caused by rank 0's
 * slow thread through its barrier), and both meet in MPI_Allreduce.
 */
#include <mpi.h>
#include <omp.h>
#include <stdio.h>

static volatile double sink;

__attribute__((noinline)) static void compute(long n)
{
    double x = 0;
    for (long i = 0; i < n; i++) {
        x += (double) i * 1e-9;
    }
    sink = x;
}

int main(int argc, char** argv)
{
    int provided, rank;
    MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    for (int it = 0; it < 4; it++) {
#pragma omp parallel
        {
            int t = omp_get_thread_num();
            long n = 100000L;
            if (rank == 0 && t == it % omp_get_num_threads()) {
                n *= 3;
            }
            compute(n);
        }
        double v = it, w = 0;
        if (rank == 0) {
            MPI_Send(&v, 1, MPI_DOUBLE, 1, it, MPI_COMM_WORLD);
        } else if (rank == 1) {
            MPI_Recv(&w, 1, MPI_DOUBLE, 0, it, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        }
        MPI_Allreduce(&v, &w, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    }
    MPI_Finalize();
    if (rank == 0) {
        printf("hybrid-cross: done\n");
    }
    return 0;
}
