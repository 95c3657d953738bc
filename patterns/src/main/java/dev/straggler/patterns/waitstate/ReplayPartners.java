package dev.straggler.patterns.waitstate;

import dev.straggler.replay.LocationData;
import dev.straggler.replay.MessageMatching;
import dev.straggler.replay.Replay;
import dev.straggler.replay.RecvTable;
import dev.straggler.replay.SendTable;

/** Partners from the single-machine replay's envelope queues: the cursors of {@link MessageMatching}. */
final class ReplayPartners implements MessagePartners {
    private final Replay replay;
    private final int location;
    private MessageMatching.ReceiveCursor receives;
    private MessageMatching.SendCursor sends;
    private SendTable sendTable;
    private int send;
    private int sendLocation;
    private RecvTable recvTable;
    private int recv;
    private int recvLocation;

    ReplayPartners(Replay replay, int location) {
        this.replay = replay;
        this.location = location;
    }

    @Override
    public boolean matchReceive(int i) {
        if (receives == null) {
            receives = replay.messages().receiveCursor(location);
        }
        send = receives.partner(i);
        if (send < 0) {
            return false;
        }
        sendLocation = receives.partnerLocation();
        sendTable = replay.location(sendLocation).sends();
        return true;
    }

    @Override
    public long sendEnter() {
        return sendTable.enter(send);
    }

    @Override
    public long sendTime() {
        return sendTable.time(send);
    }

    @Override
    public long sendBytes() {
        return sendTable.bytes(send);
    }

    @Override
    public int sendRank() {
        return replay.location(sendLocation).rank();
    }

    @Override
    public boolean matchSend(int j) {
        if (sends == null) {
            sends = replay.messages().sendCursor(location);
        }
        recv = sends.partner(j);
        if (recv < 0) {
            return false;
        }
        recvLocation = sends.partnerLocation();
        recvTable = replay.location(recvLocation).receives();
        return true;
    }

    @Override
    public long receiveRequestEnter() {
        return recvTable.reqEnter(recv);
    }

    @Override
    public int receiveRank() {
        LocationData d = replay.location(recvLocation);
        return d.rank();
    }
}
