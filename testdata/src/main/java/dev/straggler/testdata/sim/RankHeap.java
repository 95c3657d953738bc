package dev.straggler.testdata.sim;

import java.util.Arrays;

/**
 * Min-heap of ranks keyed by (time, rank): the order in which ranks execute their next MPI call. Ties go to the
 * lower rank, which makes every run deterministic. A rank is in the heap at most once. No boxing.
 */
final class RankHeap {
    private final int[] heap;
    private final long[] key;
    private int size;

    RankHeap(int ranks) {
        heap = new int[ranks];
        key = new long[ranks];
    }

    boolean isEmpty() {
        return size == 0;
    }

    void push(int rank, long time) {
        key[rank] = time;
        int i = size++;
        heap[i] = rank;
        while (i > 0) {
            int p = (i - 1) >>> 1;
            if (!less(heap[i], heap[p])) {
                break;
            }
            swap(i, p);
            i = p;
        }
    }

    int pop() {
        int top = heap[0];
        heap[0] = heap[--size];
        int i = 0;
        while (true) {
            int l = 2 * i + 1;
            if (l >= size) {
                break;
            }
            int m = l + 1 < size && less(heap[l + 1], heap[l]) ? l + 1 : l;
            if (!less(heap[m], heap[i])) {
                break;
            }
            swap(i, m);
            i = m;
        }
        return top;
    }

    private boolean less(int a, int b) {
        return key[a] < key[b] || key[a] == key[b] && a < b;
    }

    private void swap(int i, int j) {
        int t = heap[i];
        heap[i] = heap[j];
        heap[j] = t;
    }

    @Override
    public String toString() {
        return "RankHeap" + Arrays.toString(Arrays.copyOf(heap, size));
    }
}
