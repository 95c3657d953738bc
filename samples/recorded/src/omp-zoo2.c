/*
 * More OpenMP constructs (Straggler's recorded sample "omp-zoo2"): 2 ranks x 4 threads, MPI_THREAD_FUNNELED, 2
 * iterations, each construct after thread-dependent work:
 *   named       two named critical sections, taken in turn by every thread
 *   nestlock    omp_set_nest_lock twice (nested) and omp_unset_nest_lock twice, under contention
 *   testlock    omp_test_lock polled until the lock is free
 *   reduction   a guided loop with a reduction clause and nowait, then an explicit barrier
 *   master_mpi  MPI_Allreduce called by the master inside a parallel region, between two explicit barriers
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
static double a, b;
static omp_nest_lock_t nest;
static omp_lock_t plain;

__attribute__((noinline)) static void named(void)
{
#pragma omp parallel
    {
        for (int k = 0; k < 2; k++) {
            work(10000L * (omp_get_thread_num() + 1));
#pragma omp critical(first)
            {
                work(30000L);
                a += 1;
            }
#pragma omp critical(second)
            {
                work(20000L);
                b += 1;
            }
        }
    }
}

__attribute__((noinline)) static void nestlock(void)
{
#pragma omp parallel
    {
        work(15000L * (4 - omp_get_thread_num()));
        omp_set_nest_lock(&nest);
        omp_set_nest_lock(&nest);
        work(25000L);
        omp_unset_nest_lock(&nest);
        omp_unset_nest_lock(&nest);
    }
}

__attribute__((noinline)) static void testlock(void)
{
#pragma omp parallel
    {
        work(10000L * (omp_get_thread_num() + 1));
        while (!omp_test_lock(&plain)) {
            work(3000L);
        }
        work(20000L);
        omp_unset_lock(&plain);
    }
}

__attribute__((noinline)) static double reduction(void)
{
    double sum = 0;
#pragma omp parallel
    {
#pragma omp for schedule(guided) reduction(+ : sum) nowait
        for (int i = 0; i < 64; i++) {
            work(3000L * (i % 7 + 1));
            sum += i;
        }
        work(40000L * (omp_get_thread_num() % 2 + 1));
#pragma omp barrier
    }
    return sum;
}

__attribute__((noinline)) static void master_mpi(void)
{
    double v = rank, w = 0;
#pragma omp parallel
    {
        work(30000L * (omp_get_thread_num() + 1) * (rank + 1));
#pragma omp barrier
#pragma omp master
        {
            work(50000L * (2 - rank));
            MPI_Allreduce(&v, &w, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
        }
#pragma omp barrier
    }
}

int main(int argc, char** argv)
{
    int provided;
    MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    omp_init_nest_lock(&nest);
    omp_init_lock(&plain);
    double s = 0;
    for (int it = 0; it < 2; it++) {
        named();
        nestlock();
        testlock();
        s += reduction();
        master_mpi();
    }
    omp_destroy_lock(&plain);
    omp_destroy_nest_lock(&nest);
    MPI_Finalize();
    if (rank == 0) {
        printf("omp-zoo2: %.0f %.0f %.0f\n", a, b, s);
    }
    return 0;
}
