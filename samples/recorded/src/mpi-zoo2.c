/*
 * MPI operations beyond mpi-zoo (Straggler's recorded sample "mpi-zoo2"): 4 ranks, 2 iterations, each phase after
 * rank-dependent work:
 *   vcoll     MPI_Gatherv, MPI_Scatterv, MPI_Allgatherv, MPI_Reduce_scatter, MPI_Alltoallw on a duplicated
 *             MPI_COMM_WORLD (MPI_Comm_dup)
 *   nbc       non-blocking collectives: MPI_Ibarrier, MPI_Ibcast, MPI_Iallreduce, each completed by MPI_Wait
 *   issend    MPI_Issend completed by an MPI_Testall loop; MPI_Irsend to a receive posted before a barrier
 *   waitall   MPI_Irecv from every other rank then MPI_Isend to every other rank, one MPI_Waitall for all
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

static int rank, size;

__attribute__((noinline)) static void vcoll(MPI_Comm comm)
{
    double a[8] = { 1, 2, 3, 4, 5, 6, 7, 8 }, b[8] = { 0 };
    int counts[4], displs[4], bytes[4], bdispls[4];
    MPI_Datatype types[4];
    for (int i = 0; i < size; i++) {
        counts[i] = 1;
        displs[i] = i;
        bytes[i] = 1;
        bdispls[i] = i * (int) sizeof(double);
        types[i] = MPI_DOUBLE;
    }
    work(150000L * (rank + 1));
    MPI_Gatherv(a, 1, MPI_DOUBLE, b, counts, displs, MPI_DOUBLE, 0, comm);
    work(100000L * (size - rank));
    MPI_Scatterv(a, counts, displs, MPI_DOUBLE, b, 1, MPI_DOUBLE, size - 1, comm);
    work(80000L * ((rank * 3) % size + 1));
    MPI_Allgatherv(a, 1, MPI_DOUBLE, b, counts, displs, MPI_DOUBLE, comm);
    MPI_Reduce_scatter(a, b, counts, MPI_DOUBLE, MPI_SUM, comm);
    work(60000L * (rank + 1));
    MPI_Alltoallw(a, bytes, bdispls, types, b, bytes, bdispls, types, comm);
}

__attribute__((noinline)) static void nbc(void)
{
    double a = rank, b = 0;
    MPI_Request r;
    work(120000L * (rank + 1));
    MPI_Ibarrier(MPI_COMM_WORLD, &r);
    MPI_Wait(&r, MPI_STATUS_IGNORE);
    if (rank == 0) {
        work(300000L);
    }
    MPI_Ibcast(&a, 1, MPI_DOUBLE, 0, MPI_COMM_WORLD, &r);
    work(50000L);
    MPI_Wait(&r, MPI_STATUS_IGNORE);
    work(90000L * (size - rank));
    MPI_Iallreduce(&a, &b, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD, &r);
    MPI_Wait(&r, MPI_STATUS_IGNORE);
}

__attribute__((noinline)) static void issend(void)
{
    double v = rank, w = 0;
    MPI_Request r[2];
    int partner = rank ^ 1;
    if (rank % 2 == 0) {
        int flag = 0;
        MPI_Issend(&v, 1, MPI_DOUBLE, partner, 11, MPI_COMM_WORLD, &r[0]);
        while (!flag) {
            work(20000L);
            MPI_Testall(1, r, &flag, MPI_STATUSES_IGNORE);
        }
    } else {
        work(250000L);
        MPI_Recv(&w, 1, MPI_DOUBLE, partner, 11, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }
    /* ready send: the receive is posted before the barrier, the send after it */
    if (rank % 2 == 1) {
        MPI_Irecv(&w, 1, MPI_DOUBLE, partner, 12, MPI_COMM_WORLD, &r[1]);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank % 2 == 0) {
        work(100000L);
        MPI_Irsend(&v, 1, MPI_DOUBLE, partner, 12, MPI_COMM_WORLD, &r[0]);
        MPI_Wait(&r[0], MPI_STATUS_IGNORE);
    } else {
        MPI_Wait(&r[1], MPI_STATUS_IGNORE);
    }
}

__attribute__((noinline)) static void waitall(void)
{
    double out[4], in[4];
    MPI_Request r[8];
    int n = 0;
    for (int p = 0; p < size; p++) {
        if (p != rank) {
            MPI_Irecv(&in[p], 1, MPI_DOUBLE, p, 13, MPI_COMM_WORLD, &r[n++]);
        }
    }
    work(110000L * ((rank + 2) % size + 1));
    for (int p = 0; p < size; p++) {
        if (p != rank) {
            out[p] = rank;
            MPI_Isend(&out[p], 1, MPI_DOUBLE, p, 13, MPI_COMM_WORLD, &r[n++]);
        }
    }
    MPI_Waitall(n, r, MPI_STATUSES_IGNORE);
}

int main(int argc, char** argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (size != 4) {
        if (rank == 0) {
            fprintf(stderr, "mpi-zoo2 needs 4 ranks\n");
        }
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    MPI_Comm dup;
    MPI_Comm_dup(MPI_COMM_WORLD, &dup);
    for (int it = 0; it < 2; it++) {
        vcoll(dup);
        nbc();
        issend();
        waitall();
    }
    MPI_Comm_free(&dup);
    MPI_Finalize();
    if (rank == 0) {
        printf("mpi-zoo2: %d ranks, 2 iterations\n", size);
    }
    return 0;
}
