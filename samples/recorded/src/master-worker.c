/*
 * A master/worker program (Straggler's recorded sample "master-worker"): rank 0 hands out TASKS tasks of unequal
 * size to the other ranks and collects their results with MPI_ANY_SOURCE; the workers receive with MPI_ANY_TAG,
 * compute and reply. The ranks run different routines (the master `manage`, the workers `compute`), so the
 * critical path's partition rules (inter-partition imbalance) apply, and wildcard receives exercise the message
 * matching.
 */
#include <mpi.h>
#include <stdio.h>

#define TASKS 30
#define STOP 9999

static volatile double sink;

__attribute__((noinline)) static void compute(long n)
{
    double x = 0;
    for (long i = 0; i < n; i++) {
        x += (double) i * 1e-9;
    }
    sink = x;
}

__attribute__((noinline)) static void manage(long n)
{
    double x = 0;
    for (long i = 0; i < n; i++) {
        x += (double) i * 2e-9;
    }
    sink = x;
}

static long task_size(int t)
{
    return 40000L + 35000L * ((t * 7) % 11);
}

static void master(int size)
{
    int next = 0, running = 0;
    double result;
    MPI_Status st;
    for (int w = 1; w < size && next < TASKS; w++, next++, running++) {
        MPI_Send(&next, 1, MPI_INT, w, next, MPI_COMM_WORLD);
    }
    while (running > 0) {
        MPI_Recv(&result, 1, MPI_DOUBLE, MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &st);
        running--;
        manage(20000L);
        if (next < TASKS) {
            MPI_Send(&next, 1, MPI_INT, st.MPI_SOURCE, next, MPI_COMM_WORLD);
            next++;
            running++;
        }
    }
    int stop = -1;
    for (int w = 1; w < size; w++) {
        MPI_Send(&stop, 1, MPI_INT, w, STOP, MPI_COMM_WORLD);
    }
}

static void worker(void)
{
    int task;
    MPI_Status st;
    for (;;) {
        MPI_Recv(&task, 1, MPI_INT, 0, MPI_ANY_TAG, MPI_COMM_WORLD, &st);
        if (st.MPI_TAG == STOP) {
            break;
        }
        compute(task_size(task));
        double result = task;
        MPI_Send(&result, 1, MPI_DOUBLE, 0, task, MPI_COMM_WORLD);
    }
}

int main(int argc, char** argv)
{
    int rank, size;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (rank == 0) {
        master(size);
    } else {
        worker();
    }
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Finalize();
    if (rank == 0) {
        printf("master-worker: %d tasks on %d workers\n", TASKS, size - 1);
    }
    return 0;
}
