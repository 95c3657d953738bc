/*
 * Many call paths between two synchronisation points (Straggler's recorded sample "many-paths"): 2 ranks, 3 rounds.
 * In each round both ranks call 160 distinct routines (f0 ... f159, generated, each a short computation; rank 1's
 * a little longer), interleaved with eager sends from rank 0 that synchronise nothing (rank 1 receives them
 * late), then rank 0 waits for rank 1 in MPI_Recv: each interval holds more than 128 call paths. Scalasca's time maps hold at most 128 call paths (fixed_priority_map), so the interval maps and the
 * delay analysis give way as Scalasca's do.
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

__attribute__((noinline)) static void f0(long n) { work(n + 0 * 500L); }
__attribute__((noinline)) static void f1(long n) { work(n + 1 * 500L); }
__attribute__((noinline)) static void f2(long n) { work(n + 2 * 500L); }
__attribute__((noinline)) static void f3(long n) { work(n + 3 * 500L); }
__attribute__((noinline)) static void f4(long n) { work(n + 4 * 500L); }
__attribute__((noinline)) static void f5(long n) { work(n + 5 * 500L); }
__attribute__((noinline)) static void f6(long n) { work(n + 6 * 500L); }
__attribute__((noinline)) static void f7(long n) { work(n + 7 * 500L); }
__attribute__((noinline)) static void f8(long n) { work(n + 8 * 500L); }
__attribute__((noinline)) static void f9(long n) { work(n + 9 * 500L); }
__attribute__((noinline)) static void f10(long n) { work(n + 10 * 500L); }
__attribute__((noinline)) static void f11(long n) { work(n + 11 * 500L); }
__attribute__((noinline)) static void f12(long n) { work(n + 12 * 500L); }
__attribute__((noinline)) static void f13(long n) { work(n + 0 * 500L); }
__attribute__((noinline)) static void f14(long n) { work(n + 1 * 500L); }
__attribute__((noinline)) static void f15(long n) { work(n + 2 * 500L); }
__attribute__((noinline)) static void f16(long n) { work(n + 3 * 500L); }
__attribute__((noinline)) static void f17(long n) { work(n + 4 * 500L); }
__attribute__((noinline)) static void f18(long n) { work(n + 5 * 500L); }
__attribute__((noinline)) static void f19(long n) { work(n + 6 * 500L); }
__attribute__((noinline)) static void f20(long n) { work(n + 7 * 500L); }
__attribute__((noinline)) static void f21(long n) { work(n + 8 * 500L); }
__attribute__((noinline)) static void f22(long n) { work(n + 9 * 500L); }
__attribute__((noinline)) static void f23(long n) { work(n + 10 * 500L); }
__attribute__((noinline)) static void f24(long n) { work(n + 11 * 500L); }
__attribute__((noinline)) static void f25(long n) { work(n + 12 * 500L); }
__attribute__((noinline)) static void f26(long n) { work(n + 0 * 500L); }
__attribute__((noinline)) static void f27(long n) { work(n + 1 * 500L); }
__attribute__((noinline)) static void f28(long n) { work(n + 2 * 500L); }
__attribute__((noinline)) static void f29(long n) { work(n + 3 * 500L); }
__attribute__((noinline)) static void f30(long n) { work(n + 4 * 500L); }
__attribute__((noinline)) static void f31(long n) { work(n + 5 * 500L); }
__attribute__((noinline)) static void f32(long n) { work(n + 6 * 500L); }
__attribute__((noinline)) static void f33(long n) { work(n + 7 * 500L); }
__attribute__((noinline)) static void f34(long n) { work(n + 8 * 500L); }
__attribute__((noinline)) static void f35(long n) { work(n + 9 * 500L); }
__attribute__((noinline)) static void f36(long n) { work(n + 10 * 500L); }
__attribute__((noinline)) static void f37(long n) { work(n + 11 * 500L); }
__attribute__((noinline)) static void f38(long n) { work(n + 12 * 500L); }
__attribute__((noinline)) static void f39(long n) { work(n + 0 * 500L); }
__attribute__((noinline)) static void f40(long n) { work(n + 1 * 500L); }
__attribute__((noinline)) static void f41(long n) { work(n + 2 * 500L); }
__attribute__((noinline)) static void f42(long n) { work(n + 3 * 500L); }
__attribute__((noinline)) static void f43(long n) { work(n + 4 * 500L); }
__attribute__((noinline)) static void f44(long n) { work(n + 5 * 500L); }
__attribute__((noinline)) static void f45(long n) { work(n + 6 * 500L); }
__attribute__((noinline)) static void f46(long n) { work(n + 7 * 500L); }
__attribute__((noinline)) static void f47(long n) { work(n + 8 * 500L); }
__attribute__((noinline)) static void f48(long n) { work(n + 9 * 500L); }
__attribute__((noinline)) static void f49(long n) { work(n + 10 * 500L); }
__attribute__((noinline)) static void f50(long n) { work(n + 11 * 500L); }
__attribute__((noinline)) static void f51(long n) { work(n + 12 * 500L); }
__attribute__((noinline)) static void f52(long n) { work(n + 0 * 500L); }
__attribute__((noinline)) static void f53(long n) { work(n + 1 * 500L); }
__attribute__((noinline)) static void f54(long n) { work(n + 2 * 500L); }
__attribute__((noinline)) static void f55(long n) { work(n + 3 * 500L); }
__attribute__((noinline)) static void f56(long n) { work(n + 4 * 500L); }
__attribute__((noinline)) static void f57(long n) { work(n + 5 * 500L); }
__attribute__((noinline)) static void f58(long n) { work(n + 6 * 500L); }
__attribute__((noinline)) static void f59(long n) { work(n + 7 * 500L); }
__attribute__((noinline)) static void f60(long n) { work(n + 8 * 500L); }
__attribute__((noinline)) static void f61(long n) { work(n + 9 * 500L); }
__attribute__((noinline)) static void f62(long n) { work(n + 10 * 500L); }
__attribute__((noinline)) static void f63(long n) { work(n + 11 * 500L); }
__attribute__((noinline)) static void f64(long n) { work(n + 12 * 500L); }
__attribute__((noinline)) static void f65(long n) { work(n + 0 * 500L); }
__attribute__((noinline)) static void f66(long n) { work(n + 1 * 500L); }
__attribute__((noinline)) static void f67(long n) { work(n + 2 * 500L); }
__attribute__((noinline)) static void f68(long n) { work(n + 3 * 500L); }
__attribute__((noinline)) static void f69(long n) { work(n + 4 * 500L); }
__attribute__((noinline)) static void f70(long n) { work(n + 5 * 500L); }
__attribute__((noinline)) static void f71(long n) { work(n + 6 * 500L); }
__attribute__((noinline)) static void f72(long n) { work(n + 7 * 500L); }
__attribute__((noinline)) static void f73(long n) { work(n + 8 * 500L); }
__attribute__((noinline)) static void f74(long n) { work(n + 9 * 500L); }
__attribute__((noinline)) static void f75(long n) { work(n + 10 * 500L); }
__attribute__((noinline)) static void f76(long n) { work(n + 11 * 500L); }
__attribute__((noinline)) static void f77(long n) { work(n + 12 * 500L); }
__attribute__((noinline)) static void f78(long n) { work(n + 0 * 500L); }
__attribute__((noinline)) static void f79(long n) { work(n + 1 * 500L); }
__attribute__((noinline)) static void f80(long n) { work(n + 2 * 500L); }
__attribute__((noinline)) static void f81(long n) { work(n + 3 * 500L); }
__attribute__((noinline)) static void f82(long n) { work(n + 4 * 500L); }
__attribute__((noinline)) static void f83(long n) { work(n + 5 * 500L); }
__attribute__((noinline)) static void f84(long n) { work(n + 6 * 500L); }
__attribute__((noinline)) static void f85(long n) { work(n + 7 * 500L); }
__attribute__((noinline)) static void f86(long n) { work(n + 8 * 500L); }
__attribute__((noinline)) static void f87(long n) { work(n + 9 * 500L); }
__attribute__((noinline)) static void f88(long n) { work(n + 10 * 500L); }
__attribute__((noinline)) static void f89(long n) { work(n + 11 * 500L); }
__attribute__((noinline)) static void f90(long n) { work(n + 12 * 500L); }
__attribute__((noinline)) static void f91(long n) { work(n + 0 * 500L); }
__attribute__((noinline)) static void f92(long n) { work(n + 1 * 500L); }
__attribute__((noinline)) static void f93(long n) { work(n + 2 * 500L); }
__attribute__((noinline)) static void f94(long n) { work(n + 3 * 500L); }
__attribute__((noinline)) static void f95(long n) { work(n + 4 * 500L); }
__attribute__((noinline)) static void f96(long n) { work(n + 5 * 500L); }
__attribute__((noinline)) static void f97(long n) { work(n + 6 * 500L); }
__attribute__((noinline)) static void f98(long n) { work(n + 7 * 500L); }
__attribute__((noinline)) static void f99(long n) { work(n + 8 * 500L); }
__attribute__((noinline)) static void f100(long n) { work(n + 9 * 500L); }
__attribute__((noinline)) static void f101(long n) { work(n + 10 * 500L); }
__attribute__((noinline)) static void f102(long n) { work(n + 11 * 500L); }
__attribute__((noinline)) static void f103(long n) { work(n + 12 * 500L); }
__attribute__((noinline)) static void f104(long n) { work(n + 0 * 500L); }
__attribute__((noinline)) static void f105(long n) { work(n + 1 * 500L); }
__attribute__((noinline)) static void f106(long n) { work(n + 2 * 500L); }
__attribute__((noinline)) static void f107(long n) { work(n + 3 * 500L); }
__attribute__((noinline)) static void f108(long n) { work(n + 4 * 500L); }
__attribute__((noinline)) static void f109(long n) { work(n + 5 * 500L); }
__attribute__((noinline)) static void f110(long n) { work(n + 6 * 500L); }
__attribute__((noinline)) static void f111(long n) { work(n + 7 * 500L); }
__attribute__((noinline)) static void f112(long n) { work(n + 8 * 500L); }
__attribute__((noinline)) static void f113(long n) { work(n + 9 * 500L); }
__attribute__((noinline)) static void f114(long n) { work(n + 10 * 500L); }
__attribute__((noinline)) static void f115(long n) { work(n + 11 * 500L); }
__attribute__((noinline)) static void f116(long n) { work(n + 12 * 500L); }
__attribute__((noinline)) static void f117(long n) { work(n + 0 * 500L); }
__attribute__((noinline)) static void f118(long n) { work(n + 1 * 500L); }
__attribute__((noinline)) static void f119(long n) { work(n + 2 * 500L); }
__attribute__((noinline)) static void f120(long n) { work(n + 3 * 500L); }
__attribute__((noinline)) static void f121(long n) { work(n + 4 * 500L); }
__attribute__((noinline)) static void f122(long n) { work(n + 5 * 500L); }
__attribute__((noinline)) static void f123(long n) { work(n + 6 * 500L); }
__attribute__((noinline)) static void f124(long n) { work(n + 7 * 500L); }
__attribute__((noinline)) static void f125(long n) { work(n + 8 * 500L); }
__attribute__((noinline)) static void f126(long n) { work(n + 9 * 500L); }
__attribute__((noinline)) static void f127(long n) { work(n + 10 * 500L); }
__attribute__((noinline)) static void f128(long n) { work(n + 11 * 500L); }
__attribute__((noinline)) static void f129(long n) { work(n + 12 * 500L); }
__attribute__((noinline)) static void f130(long n) { work(n + 0 * 500L); }
__attribute__((noinline)) static void f131(long n) { work(n + 1 * 500L); }
__attribute__((noinline)) static void f132(long n) { work(n + 2 * 500L); }
__attribute__((noinline)) static void f133(long n) { work(n + 3 * 500L); }
__attribute__((noinline)) static void f134(long n) { work(n + 4 * 500L); }
__attribute__((noinline)) static void f135(long n) { work(n + 5 * 500L); }
__attribute__((noinline)) static void f136(long n) { work(n + 6 * 500L); }
__attribute__((noinline)) static void f137(long n) { work(n + 7 * 500L); }
__attribute__((noinline)) static void f138(long n) { work(n + 8 * 500L); }
__attribute__((noinline)) static void f139(long n) { work(n + 9 * 500L); }
__attribute__((noinline)) static void f140(long n) { work(n + 10 * 500L); }
__attribute__((noinline)) static void f141(long n) { work(n + 11 * 500L); }
__attribute__((noinline)) static void f142(long n) { work(n + 12 * 500L); }
__attribute__((noinline)) static void f143(long n) { work(n + 0 * 500L); }
__attribute__((noinline)) static void f144(long n) { work(n + 1 * 500L); }
__attribute__((noinline)) static void f145(long n) { work(n + 2 * 500L); }
__attribute__((noinline)) static void f146(long n) { work(n + 3 * 500L); }
__attribute__((noinline)) static void f147(long n) { work(n + 4 * 500L); }
__attribute__((noinline)) static void f148(long n) { work(n + 5 * 500L); }
__attribute__((noinline)) static void f149(long n) { work(n + 6 * 500L); }
__attribute__((noinline)) static void f150(long n) { work(n + 7 * 500L); }
__attribute__((noinline)) static void f151(long n) { work(n + 8 * 500L); }
__attribute__((noinline)) static void f152(long n) { work(n + 9 * 500L); }
__attribute__((noinline)) static void f153(long n) { work(n + 10 * 500L); }
__attribute__((noinline)) static void f154(long n) { work(n + 11 * 500L); }
__attribute__((noinline)) static void f155(long n) { work(n + 12 * 500L); }
__attribute__((noinline)) static void f156(long n) { work(n + 0 * 500L); }
__attribute__((noinline)) static void f157(long n) { work(n + 1 * 500L); }
__attribute__((noinline)) static void f158(long n) { work(n + 2 * 500L); }
__attribute__((noinline)) static void f159(long n) { work(n + 3 * 500L); }

static void (*const routines[160])(long) = { f0, f1, f2, f3, f4, f5, f6, f7, f8, f9, f10, f11, f12, f13, f14, f15, f16, f17, f18, f19, f20, f21, f22, f23, f24, f25, f26, f27, f28, f29, f30, f31, f32, f33, f34, f35, f36, f37, f38, f39, f40, f41, f42, f43, f44, f45, f46, f47, f48, f49, f50, f51, f52, f53, f54, f55, f56, f57, f58, f59, f60, f61, f62, f63, f64, f65, f66, f67, f68, f69, f70, f71, f72, f73, f74, f75, f76, f77, f78, f79, f80, f81, f82, f83, f84, f85, f86, f87, f88, f89, f90, f91, f92, f93, f94, f95, f96, f97, f98, f99, f100, f101, f102, f103, f104, f105, f106, f107, f108, f109, f110, f111, f112, f113, f114, f115, f116, f117, f118, f119, f120, f121, f122, f123, f124, f125, f126, f127, f128, f129, f130, f131, f132, f133, f134, f135, f136, f137, f138, f139, f140, f141, f142, f143, f144, f145, f146, f147, f148, f149, f150, f151, f152, f153, f154, f155, f156, f157, f158, f159 };

int main(int argc, char** argv)
{
    int rank;
    char buf[8] = { 0 };
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    for (int round = 0; round < 3; round++) {
        for (int i = 0; i < 160; i++) {
            routines[(i * 7 + round) % 160](rank == 1 ? 3000L : 2000L);
            if (i % 40 == 39 && rank == 0) {
                MPI_Send(buf, 8, MPI_BYTE, 1, 100 + i, MPI_COMM_WORLD);
            }
            if (i % 40 == 39 && rank == 1) {
                MPI_Recv(buf, 8, MPI_BYTE, 0, 100 + i, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            }
        }
        if (rank == 1) {
            MPI_Send(buf, 8, MPI_BYTE, 0, round, MPI_COMM_WORLD);
        } else {
            MPI_Recv(buf, 8, MPI_BYTE, 1, round, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        }
    }
    MPI_Finalize();
    if (rank == 0) {
        printf("many-paths: 160 routines, 3 rounds\n");
    }
    return 0;
}
