/*
 * Nested OpenMP parallel regions (Straggler's recorded sample "omp-nested"): 2 ranks, each an outer team of 2 threads
 * that each open an inner team of 2 (omp_set_max_active_levels(2)), then an MPI_Allreduce. Scalasca 2.6 refuses the
 * trace ("Varying numbers of threads in OpenMP parallel regions not supported!"); Straggler analyses it without the
 * OpenMP waiting, idle threads and delays of the nested teams, and says so.
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

int main(int argc, char** argv)
{
    int provided, rank;
    MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    omp_set_max_active_levels(2);
#pragma omp parallel num_threads(2)
    {
#pragma omp parallel num_threads(2)
        work(50000L * (omp_get_thread_num() + 1));
    }
    double v = rank, w;
    MPI_Allreduce(&v, &w, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    MPI_Finalize();
    if (rank == 0) {
        printf("omp-nested: done\n");
    }
    return 0;
}
