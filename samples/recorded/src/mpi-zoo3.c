/*
 * MPI usages of stencil and coupled codes (Straggler's recorded sample "mpi-zoo3"): 4 ranks, 2 iterations, each
 * phase after rank-dependent work:
 *   rendezvous  MPI_Send of 1 MiB to a rank that posts its receive late (Late Receiver in a blocking send)
 *   waitany_lr  MPI_Isend of 1 MiB completed by MPI_Waitany while the receiver is late
 *   procnull    a non-periodic chain: MPI_Sendrecv with MPI_PROC_NULL at both ends
 *   iprobe      an MPI_Iprobe loop until a late message arrives, then MPI_Recv
 *   self        MPI_Allreduce and MPI_Bcast on MPI_COMM_SELF
 *   cart        MPI_Cart_create (periodic ring), MPI_Cart_shift, MPI_Neighbor_alltoall and MPI_Neighbor_allgather
 *   undefined   MPI_Comm_split where rank 3 takes MPI_UNDEFINED; MPI_Barrier on the others' communicator
 * (An inter-communicator is left out: Scalasca 2.6 stops at a trace that has one, "invalid ID".)
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#define BIG (1 << 17) /* doubles: 1 MiB */

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
static double* big;

__attribute__((noinline)) static void rendezvous(void)
{
    if (rank == 0) {
        MPI_Send(big, BIG, MPI_DOUBLE, 1, 20, MPI_COMM_WORLD);
    } else if (rank == 1) {
        work(300000L);
        MPI_Recv(big, BIG, MPI_DOUBLE, 0, 20, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }
}

__attribute__((noinline)) static void waitany_lr(void)
{
    if (rank == 2) {
        MPI_Request r[2];
        int idx;
        MPI_Isend(big, BIG, MPI_DOUBLE, 3, 21, MPI_COMM_WORLD, &r[0]);
        MPI_Isend(big + 8, 8, MPI_DOUBLE, 3, 22, MPI_COMM_WORLD, &r[1]);
        MPI_Waitany(2, r, &idx, MPI_STATUS_IGNORE);
        MPI_Waitany(2, r, &idx, MPI_STATUS_IGNORE);
    } else if (rank == 3) {
        double small[8];
        work(250000L);
        MPI_Recv(big, BIG, MPI_DOUBLE, 2, 21, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Recv(small, 8, MPI_DOUBLE, 2, 22, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }
}

__attribute__((noinline)) static void procnull(void)
{
    int up = rank + 1 < size ? rank + 1 : MPI_PROC_NULL;
    int down = rank > 0 ? rank - 1 : MPI_PROC_NULL;
    double out = rank, in = -1;
    work(100000L * (rank + 1));
    MPI_Sendrecv(&out, 1, MPI_DOUBLE, up, 23, &in, 1, MPI_DOUBLE, down, 23, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    work(100000L * (size - rank));
    MPI_Sendrecv(&out, 1, MPI_DOUBLE, down, 24, &in, 1, MPI_DOUBLE, up, 24, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
}

__attribute__((noinline)) static void iprobe(void)
{
    double v = rank;
    if (rank == 1) {
        work(300000L);
        MPI_Send(&v, 1, MPI_DOUBLE, 2, 25, MPI_COMM_WORLD);
    } else if (rank == 2) {
        int flag = 0;
        while (!flag) {
            work(10000L);
            MPI_Iprobe(1, 25, MPI_COMM_WORLD, &flag, MPI_STATUS_IGNORE);
        }
        MPI_Recv(&v, 1, MPI_DOUBLE, 1, 25, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }
}

__attribute__((noinline)) static void self(void)
{
    double a = rank, b = 0;
    MPI_Allreduce(&a, &b, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_SELF);
    MPI_Bcast(&a, 1, MPI_DOUBLE, 0, MPI_COMM_SELF);
}

__attribute__((noinline)) static void cart(MPI_Comm ring)
{
    int left, right;
    double out[2] = { rank, rank }, in[2];
    MPI_Cart_shift(ring, 0, 1, &left, &right);
    work(120000L * ((rank * 3) % size + 1));
    MPI_Neighbor_alltoall(out, 1, MPI_DOUBLE, in, 1, MPI_DOUBLE, ring);
    work(60000L * (rank + 1));
    MPI_Neighbor_allgather(out, 1, MPI_DOUBLE, in, 1, MPI_DOUBLE, ring);
}

__attribute__((noinline)) static void undefined(MPI_Comm three)
{
    if (three != MPI_COMM_NULL) {
        work(90000L * (rank + 1));
        MPI_Barrier(three);
    }
}

int main(int argc, char** argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (size != 4) {
        if (rank == 0) {
            fprintf(stderr, "mpi-zoo3 needs 4 ranks\n");
        }
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    big = calloc(BIG, sizeof(double));
    int dims[1] = { size }, periods[1] = { 1 };
    MPI_Comm ring, three;
    MPI_Cart_create(MPI_COMM_WORLD, 1, dims, periods, 0, &ring);
    MPI_Comm_split(MPI_COMM_WORLD, rank == 3 ? MPI_UNDEFINED : 0, rank, &three);
    for (int it = 0; it < 2; it++) {
        rendezvous();
        waitany_lr();
        procnull();
        iprobe();
        self();
        cart(ring);
        undefined(three);
    }
    if (three != MPI_COMM_NULL) {
        MPI_Comm_free(&three);
    }
    MPI_Comm_free(&ring);
    free(big);
    MPI_Finalize();
    if (rank == 0) {
        printf("mpi-zoo3: %d ranks, 2 iterations\n", size);
    }
    return 0;
}
