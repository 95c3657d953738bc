package dev.straggler.spark;

import dev.straggler.patterns.rootcause.PartnerFacts;
import dev.straggler.patterns.waitstate.MessagePartners;

import java.util.Arrays;

/**
 * The partners of one location's point-to-point records as the keyed join found them, one array slot per record
 * row: for a receive its send's Enter, record time, size and rank; for a send its receive's request Enter and rank.
 * Rank -1 marks a record without partner. Each partner's location and row are kept for the root-cause stage
 * ({@link #rows}).
 */
final class ArrayPartners implements MessagePartners {
    final long[] sendEnter;
    final long[] sendTime;
    final long[] sendBytes;
    final int[] sendRank;
    final long[] recvRequestEnter;
    final int[] recvRank;
    final int[] sendLocation;
    final int[] sendRow;
    final int[] recvLocation;
    final int[] recvRow;
    private int current;

    ArrayPartners(int receives, int sends) {
        sendEnter = new long[receives];
        sendTime = new long[receives];
        sendBytes = new long[receives];
        sendRank = new int[receives];
        Arrays.fill(sendRank, -1);
        recvRequestEnter = new long[sends];
        recvRank = new int[sends];
        Arrays.fill(recvRank, -1);
        sendLocation = filled(receives);
        sendRow = filled(receives);
        recvLocation = filled(sends);
        recvRow = filled(sends);
    }

    private static int[] filled(int n) {
        int[] a = new int[n];
        Arrays.fill(a, -1);
        return a;
    }

    void receive(int row, long enter, long time, long bytes, int rank, int location, int partnerRow) {
        sendLocation[row] = location;
        sendRow[row] = partnerRow;
        sendEnter[row] = enter;
        sendTime[row] = time;
        sendBytes[row] = bytes;
        sendRank[row] = rank;
    }

    void send(int row, long requestEnter, int rank, int location, int partnerRow) {
        recvLocation[row] = location;
        recvRow[row] = partnerRow;
        recvRequestEnter[row] = requestEnter;
        recvRank[row] = rank;
    }

    @Override
    public boolean matchReceive(int i) {
        current = i;
        return sendRank[i] >= 0;
    }

    @Override
    public long sendEnter() {
        return sendEnter[current];
    }

    @Override
    public long sendTime() {
        return sendTime[current];
    }

    @Override
    public long sendBytes() {
        return sendBytes[current];
    }

    @Override
    public int sendRank() {
        return sendRank[current];
    }

    @Override
    public boolean matchSend(int j) {
        current = j;
        return recvRank[j] >= 0;
    }

    @Override
    public long receiveRequestEnter() {
        return recvRequestEnter[current];
    }

    @Override
    public int receiveRank() {
        return recvRank[current];
    }

    /** Where each record's partner is (location and row), all the root-cause stage keeps of the partners. */
    Rows rows() {
        return new Rows(sendLocation, sendRow, recvLocation, recvRow);
    }

    /** Per receive its send's location and row, per send its receive's; -1 where unmatched. */
    record Rows(int[] sendLocation, int[] sendRow, int[] recvLocation, int[] recvRow)
            implements PartnerFacts.Matching, java.io.Serializable {
        @Override
        public int receivePartnerLocation(int i) {
            return sendLocation[i];
        }

        @Override
        public int receivePartnerRow(int i) {
            return sendRow[i];
        }

        @Override
        public int sendPartnerLocation(int j) {
            return recvLocation[j];
        }

        @Override
        public int sendPartnerRow(int j) {
            return recvRow[j];
        }
    }
}
