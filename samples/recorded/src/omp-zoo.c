/*
 * Many OpenMP constructs with deliberate imbalance, in an MPI program (Straggler's recorded sample "omp-zoo"):
 * 2 ranks x 4 OpenMP threads, MPI called by the master thread outside parallel regions (MPI_THREAD_FUNNELED),
 * 2 iterations. Each construct follows thread-dependent work (`work`), so that Scalasca's OpenMP wait states, its
 * idle-thread and limited-parallelism metrics and the OpenMP delay costs occur:
 *   for_static     a static loop whose iterations grow with the index (implicit barrier waiting)
 *   for_dynamic    a dynamic loop (chunk 2) followed by an explicit barrier after per-thread work
 *   critical       every thread enters a critical section 4 times (lock contention, critical)
 *   locks          omp_set_lock / omp_unset_lock around a shared counter (lock contention, API)
 *   atomic_ordered atomic updates, then an ordered loop
 *   single_master  single (with its implicit barrier), master followed by an explicit barrier, sections
 *   serial         the master alone between regions, with rank-dependent work, then MPI_Sendrecv and
 *                  MPI_Allreduce (idle threads; Late Sender and Wait at N x N across the ranks)
 * Every parallel region has the full team: Scalasca 2.6 refuses a trace whose regions vary in thread count
 * ("Varying numbers of threads in OpenMP parallel regions not supported!").
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

static int rank, size;
static double shared_sum;
static omp_lock_t lock;

__attribute__((noinline)) static void for_static(void)
{
#pragma omp parallel for schedule(static)
    for (int i = 0; i < 16; i++) {
        work(20000L * (i + 1) * (rank + 1));
    }
}

__attribute__((noinline)) static void for_dynamic(void)
{
#pragma omp parallel
    {
#pragma omp for schedule(dynamic, 2) nowait
        for (int i = 0; i < 16; i++) {
            work(30000L * (16 - i));
        }
        work(50000L * (omp_get_thread_num() + 1));
#pragma omp barrier
    }
}

__attribute__((noinline)) static void critical(void)
{
#pragma omp parallel
    {
        for (int k = 0; k < 4; k++) {
            work(10000L * (omp_get_thread_num() + 1));
#pragma omp critical
            {
                work(40000L);
                shared_sum += 1;
            }
        }
    }
}

__attribute__((noinline)) static void locks(void)
{
#pragma omp parallel
    {
        for (int k = 0; k < 3; k++) {
            work(15000L * (4 - omp_get_thread_num()));
            omp_set_lock(&lock);
            work(30000L);
            shared_sum += 1;
            omp_unset_lock(&lock);
        }
    }
}

__attribute__((noinline)) static void atomic_ordered(void)
{
#pragma omp parallel
    {
        for (int k = 0; k < 8; k++) {
#pragma omp atomic
            shared_sum += 1;
        }
#pragma omp for ordered schedule(static, 1)
        for (int i = 0; i < 8; i++) {
            work(10000L * (i % 3 + 1));
#pragma omp ordered
            {
                work(5000L);
            }
        }
    }
}

__attribute__((noinline)) static void single_master(void)
{
#pragma omp parallel
    {
        work(20000L * (omp_get_thread_num() + 1));
#pragma omp single
        {
            work(100000L);
        }
#pragma omp master
        {
            work(80000L);
        }
#pragma omp barrier
#pragma omp sections
        {
#pragma omp section
            work(120000L);
#pragma omp section
            work(40000L);
        }
#pragma omp flush
    }
}

__attribute__((noinline)) static void serial(void)
{
    int partner = 1 - rank;
    double out = rank, in = 0;
    work(300000L * (rank + 1));
    MPI_Sendrecv(&out, 1, MPI_DOUBLE, partner, 1, &in, 1, MPI_DOUBLE, partner, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    work(200000L * (2 - rank));
    MPI_Allreduce(&out, &in, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
}

int main(int argc, char** argv)
{
    int provided;
    MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    omp_init_lock(&lock);
    for (int it = 0; it < 2; it++) {
        for_static();
        for_dynamic();
        critical();
        locks();
        atomic_ordered();
        single_master();
        serial();
    }
    omp_destroy_lock(&lock);
    MPI_Finalize();
    if (rank == 0) {
        printf("omp-zoo: %d ranks x %d threads, sum %.0f\n", size, omp_get_max_threads(), shared_sum);
    }
    return 0;
}
