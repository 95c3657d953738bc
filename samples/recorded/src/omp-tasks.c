/*
 * OpenMP tasks in an MPI program (Straggler's recorded sample "omp-tasks"): 2 ranks x 4 threads. One thread
 * creates tasks of unequal size, the team runs them, taskwait and the region's barrier wait for them; then the
 * master exchanges with the other rank.
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

static int rank;

__attribute__((noinline)) static void tasks(void)
{
#pragma omp parallel
    {
#pragma omp single
        {
            for (int i = 0; i < 12; i++) {
#pragma omp task firstprivate(i)
                work(20000L * (i + 1) * (rank + 1));
            }
#pragma omp taskwait
            work(50000L);
        }
    }
}

int main(int argc, char** argv)
{
    int provided;
    MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    for (int it = 0; it < 2; it++) {
        tasks();
        double v = rank, w = 0;
        MPI_Allreduce(&v, &w, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    }
    MPI_Finalize();
    if (rank == 0) {
        printf("omp-tasks: done\n");
    }
    return 0;
}
