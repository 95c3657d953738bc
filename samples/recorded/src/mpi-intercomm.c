/*
 * An inter-communicator (Straggler's recorded sample "mpi-intercomm"): 4 ranks split into the even and the odd
 * ranks, joined by MPI_Intercomm_create. Twice: rank 0 works, then broadcasts to the odd group across the
 * inter-communicator (MPI_ROOT on rank 0, MPI_PROC_NULL on rank 2), all ranks reduce across it with MPI_Allreduce,
 * and a ring exchange with MPI_Sendrecv on MPI_COMM_WORLD follows. Scalasca 2.6 stops at this trace
 * ("getCommunicator -- invalid ID").
 */
#include <mpi.h>
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
    int rank, size;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Comm half, ic;
    MPI_Comm_split(MPI_COMM_WORLD, rank % 2, rank, &half);
    MPI_Intercomm_create(half, 0, MPI_COMM_WORLD, rank % 2 == 0 ? 1 : 0, 99, &ic);
    for (int it = 0; it < 2; it++) {
        double a = rank, b = 0;
        if (rank == 0) {
            work(200000L);
        }
        if (rank % 2 == 0) {
            MPI_Bcast(&a, 1, MPI_DOUBLE, rank == 0 ? MPI_ROOT : MPI_PROC_NULL, ic);
        } else {
            MPI_Bcast(&a, 1, MPI_DOUBLE, 0, ic);
        }
        work(80000L * (rank + 1));
        MPI_Allreduce(&a, &b, 1, MPI_DOUBLE, MPI_SUM, ic);
        work(100000L * (size - rank));
        MPI_Sendrecv(&a, 1, MPI_DOUBLE, (rank + 1) % size, 1, &b, 1, MPI_DOUBLE, (rank + size - 1) % size, 1,
                     MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }
    MPI_Comm_free(&ic);
    MPI_Comm_free(&half);
    MPI_Finalize();
    if (rank == 0) {
        printf("mpi-intercomm: done\n");
    }
    return 0;
}
