/*
 * Orphaned OpenMP constructs (Straggler's recorded sample "omp-orphan"): 2 ranks x 4 threads. The routine `step`
 * holds an orphaned loop (`omp for`) and an orphaned barrier; it is called inside a parallel region, where they bind
 * to the team, and from serial code on the master, where they bind to a team of one (a barrier outside any
 * parallel region, which Scalasca's barrier analysis skips). Between the calls the masters exchange with MPI.
 */
#include <mpi.h>
#include <omp.h>
#include <stdio.h>

static volatile double sink;

__attribute__((noinline)) static void work(long n)
{
    double x = 0;
    for (long i = 0; i < n; i++) {
        x += (double) i * 1e-9;
    }
    sink = x;
}

__attribute__((noinline)) static void step(int rank)
{
#pragma omp for schedule(static)
    for (int i = 0; i < 8; i++) {
        work(15000L * (i + 1) * (rank + 1));
    }
    work(10000L * (omp_get_thread_num() + 1));
#pragma omp barrier
}

int main(int argc, char** argv)
{
    int provided, rank;
    MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    for (int it = 0; it < 2; it++) {
#pragma omp parallel
        step(rank);
        step(rank); /* serial: the orphaned constructs bind to a team of one */
        double v = rank, w = 0;
        MPI_Allreduce(&v, &w, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    }
    MPI_Finalize();
    if (rank == 0) {
        printf("omp-orphan: done\n");
    }
    return 0;
}
