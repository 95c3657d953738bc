/*
 * Many MPI operations with deliberate imbalance (Straggler's recorded sample "mpi-zoo"): 4 ranks, 2 iterations.
 * Each phase runs `work` for a rank-dependent time before its MPI calls, so that the wait states of Scalasca's MPI
 * patterns and their root causes occur:
 *   sendrecv     ring with MPI_Sendrecv and MPI_Sendrecv_replace (Late Sender inside Sendrecv)
 *   nonblocking  Irecv from both neighbours, Isend to both, completed by MPI_Waitany twice and MPI_Waitall
 *                (Late Sender in a multi-wait), then MPI_Waitsome loop
 *   ssend        even ranks MPI_Ssend to an odd rank that receives late (Late Receiver)
 *   bsend        MPI_Bsend with an attached buffer (no Late Receiver by definition)
 *   probe        MPI_Probe + MPI_Get_count + MPI_Recv of a late message
 *   test         MPI_Irecv completed by a loop of MPI_Test (never a Late Sender)
 *   persistent   MPI_Send_init / MPI_Recv_init, MPI_Start, MPI_Wait three times
 *   collectives  on MPI_COMM_WORLD and on the even/odd halves (MPI_Comm_split): Barrier, Bcast with a late root
 *                (Late Broadcast), Reduce with an early root (Early Reduce), Scan (Early Scan), Exscan, Allreduce,
 *                Allgather, Alltoall, Alltoallv, Gather, Scatter, Reduce_scatter_block
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

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

__attribute__((noinline)) static void phase_sendrecv(void)
{
    int right = (rank + 1) % size, left = (rank + size - 1) % size;
    double out = rank, in = 0;
    work(200000L * (rank + 1));
    MPI_Sendrecv(&out, 1, MPI_DOUBLE, right, 1, &in, 1, MPI_DOUBLE, left, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    work(150000L * (size - rank));
    MPI_Sendrecv_replace(&out, 1, MPI_DOUBLE, left, 2, right, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
}

__attribute__((noinline)) static void phase_nonblocking(void)
{
    int right = (rank + 1) % size, left = (rank + size - 1) % size;
    double out[2] = { rank, rank }, in[2];
    MPI_Request r[4];
    MPI_Irecv(&in[0], 1, MPI_DOUBLE, left, 3, MPI_COMM_WORLD, &r[0]);
    MPI_Irecv(&in[1], 1, MPI_DOUBLE, right, 4, MPI_COMM_WORLD, &r[1]);
    work(300000L * ((rank * 3) % size + 1));
    MPI_Isend(&out[0], 1, MPI_DOUBLE, right, 3, MPI_COMM_WORLD, &r[2]);
    MPI_Isend(&out[1], 1, MPI_DOUBLE, left, 4, MPI_COMM_WORLD, &r[3]);
    int idx;
    MPI_Waitany(2, r, &idx, MPI_STATUS_IGNORE);
    MPI_Waitany(2, r, &idx, MPI_STATUS_IGNORE);
    MPI_Waitall(2, &r[2], MPI_STATUSES_IGNORE);
    /* a second exchange completed by MPI_Waitsome until every request is done */
    MPI_Irecv(&in[0], 1, MPI_DOUBLE, left, 5, MPI_COMM_WORLD, &r[0]);
    work(250000L * (size - rank));
    MPI_Isend(&out[0], 1, MPI_DOUBLE, right, 5, MPI_COMM_WORLD, &r[1]);
    int done = 0, outcount, indices[2];
    while (done < 2) {
        MPI_Waitsome(2, r, &outcount, indices, MPI_STATUSES_IGNORE);
        if (outcount == MPI_UNDEFINED) {
            break;
        }
        done += outcount;
    }
}

__attribute__((noinline)) static void phase_ssend(void)
{
    double v = rank;
    if (rank % 2 == 0) {
        MPI_Ssend(&v, 1, MPI_DOUBLE, rank + 1, 6, MPI_COMM_WORLD);
    } else {
        work(400000L);
        MPI_Recv(&v, 1, MPI_DOUBLE, rank - 1, 6, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }
}

__attribute__((noinline)) static void phase_bsend(void)
{
    static char buffer[1 << 16];
    void* detached;
    int bytes;
    double v = rank;
    MPI_Buffer_attach(buffer, sizeof buffer);
    if (rank % 2 == 1) {
        MPI_Bsend(&v, 1, MPI_DOUBLE, rank - 1, 7, MPI_COMM_WORLD);
    } else {
        work(300000L);
        MPI_Recv(&v, 1, MPI_DOUBLE, rank + 1, 7, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }
    MPI_Buffer_detach(&detached, &bytes);
}

__attribute__((noinline)) static void phase_probe(void)
{
    double v[4] = { 0 };
    if (rank == 0) {
        work(500000L);
        MPI_Send(v, 4, MPI_DOUBLE, 1, 8, MPI_COMM_WORLD);
    } else if (rank == 1) {
        MPI_Status st;
        int count;
        MPI_Probe(0, 8, MPI_COMM_WORLD, &st);
        MPI_Get_count(&st, MPI_DOUBLE, &count);
        MPI_Recv(v, count, MPI_DOUBLE, 0, 8, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }
}

__attribute__((noinline)) static void phase_test(void)
{
    double v = 0;
    if (rank == 2) {
        work(500000L);
        MPI_Send(&v, 1, MPI_DOUBLE, 3, 9, MPI_COMM_WORLD);
    } else if (rank == 3) {
        MPI_Request r;
        int flag = 0;
        MPI_Irecv(&v, 1, MPI_DOUBLE, 2, 9, MPI_COMM_WORLD, &r);
        while (!flag) {
            work(20000L);
            MPI_Test(&r, &flag, MPI_STATUS_IGNORE);
        }
    }
}

__attribute__((noinline)) static void phase_persistent(void)
{
    int right = (rank + 1) % size, left = (rank + size - 1) % size;
    double out = rank, in = 0;
    MPI_Request r[2];
    MPI_Send_init(&out, 1, MPI_DOUBLE, right, 10, MPI_COMM_WORLD, &r[0]);
    MPI_Recv_init(&in, 1, MPI_DOUBLE, left, 10, MPI_COMM_WORLD, &r[1]);
    for (int k = 0; k < 3; k++) {
        work(100000L * (((rank + k) % size) + 1));
        MPI_Startall(2, r);
        MPI_Waitall(2, r, MPI_STATUSES_IGNORE);
    }
    MPI_Request_free(&r[0]);
    MPI_Request_free(&r[1]);
}

__attribute__((noinline)) static void phase_collectives(MPI_Comm comm)
{
    int me, n;
    MPI_Comm_rank(comm, &me);
    MPI_Comm_size(comm, &n);
    double a[8] = { 0 }, b[8] = { 0 };
    int counts[8], displs[8];
    for (int i = 0; i < n; i++) {
        counts[i] = 1;
        displs[i] = i;
    }
    work(100000L * (me + 1));
    MPI_Barrier(comm);
    if (me == 0) {
        work(400000L);                 /* late root: Late Broadcast */
    }
    MPI_Bcast(a, 2, MPI_DOUBLE, 0, comm);
    if (me != 0) {
        work(300000L);                 /* early root: Early Reduce */
    }
    MPI_Reduce(a, b, 2, MPI_DOUBLE, MPI_SUM, 0, comm);
    work(150000L * (n - me));          /* lower ranks late: Early Scan on higher ones */
    MPI_Scan(a, b, 1, MPI_DOUBLE, MPI_SUM, comm);
    MPI_Exscan(a, b, 1, MPI_DOUBLE, MPI_SUM, comm);
    work(120000L * (me + 1));
    MPI_Allreduce(a, b, 1, MPI_DOUBLE, MPI_MAX, comm);
    MPI_Allgather(a, 1, MPI_DOUBLE, b, 1, MPI_DOUBLE, comm);
    work(80000L * ((me * 2) % n + 1));
    MPI_Alltoall(a, 1, MPI_DOUBLE, b, 1, MPI_DOUBLE, comm);
    MPI_Alltoallv(a, counts, displs, MPI_DOUBLE, b, counts, displs, MPI_DOUBLE, comm);
    work(90000L * (n - me));
    MPI_Gather(a, 1, MPI_DOUBLE, b, 1, MPI_DOUBLE, n - 1, comm);
    MPI_Scatter(a, 1, MPI_DOUBLE, b, 1, MPI_DOUBLE, 0, comm);
    MPI_Reduce_scatter_block(a, b, 1, MPI_DOUBLE, MPI_SUM, comm);
}

int main(int argc, char** argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (size % 2 != 0) {
        if (rank == 0) {
            fprintf(stderr, "mpi-zoo needs an even number of ranks\n");
        }
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    MPI_Comm half;
    MPI_Comm_split(MPI_COMM_WORLD, rank % 2, rank, &half);
    for (int it = 0; it < 2; it++) {
        phase_sendrecv();
        phase_nonblocking();
        phase_ssend();
        phase_bsend();
        phase_probe();
        phase_test();
        phase_persistent();
        phase_collectives(MPI_COMM_WORLD);
        phase_collectives(half);
    }
    MPI_Comm_free(&half);
    MPI_Finalize();
    if (rank == 0) {
        printf("mpi-zoo: %d ranks, 2 iterations\n", size);
    }
    return 0;
}
