package dev.straggler.patterns.rootcause;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeMap;

/**
 * What one task of a distributed backward replay hands another, as bytes: Late Sender / Late Receiver shipments,
 * collective arrivals. A fixed binary layout rather than Java serialization, which cost more than the replay's own
 * work on every hand-over; doubles travel as their bits, so the receiver computes with exactly the sender's values.
 */
final class Wire {
    private static final byte SHIPPED = 0;
    private static final byte ARRIVAL = 1;

    private Wire() {
    }

    /** A shipment for the location and row in {@code key}, in the Late Sender channel or the Late Receiver one. */
    record Shipped(boolean lateSender, long key, CostReplay.Shipment shipment) {
    }

    static byte[] encode(List<Object> items) {
        ByteArrayOutputStream b = new ByteArrayOutputStream(256);
        try (DataOutputStream o = new DataOutputStream(b)) {
            o.writeInt(items.size());
            for (Object x : items) {
                if (x instanceof Shipped s) {
                    o.writeByte(SHIPPED);
                    o.writeBoolean(s.lateSender());
                    o.writeLong(s.key());
                    CostReplay.Shipment sh = s.shipment();
                    o.writeDouble(sh.waitTime());
                    timeMap(o, sh.times());
                    doubles(o, sh.costs());
                    o.writeBoolean(sh.criticalPath());
                } else {
                    CostReplay.Arrival a = (CostReplay.Arrival) x;
                    o.writeByte(ARRIVAL);
                    o.writeInt(a.comm());
                    o.writeInt(a.instance());
                    o.writeInt(a.member());
                    o.writeInt(a.location());
                    o.writeInt(a.row());
                    o.writeInt(a.participants());
                    o.writeByte(a.kind());
                    o.writeInt(a.size());
                    o.writeInt(a.reference());
                    o.writeInt(a.sp());
                    o.writeDouble(a.waitTime());
                    doubles(o, a.costs());
                    o.writeBoolean(a.criticalPath());
                    o.writeBoolean(a.waitState());
                    timeMap(o, a.delay());
                    CostReplay.RootPart r = a.root();
                    o.writeBoolean(r != null);
                    if (r != null) {
                        o.writeInt(r.prevSp());
                        o.writeInt(r.prevSps().size());
                        for (var e : r.prevSps().entrySet()) {
                            o.writeInt(e.getKey());
                            o.writeInt(e.getValue());
                        }
                        timeMap(o, r.group());
                        o.writeInt(r.prevSpTimes().length);
                        for (TimeMap t : r.prevSpTimes()) {
                            timeMap(o, t);
                        }
                    }
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return b.toByteArray();
    }

    static List<Object> decode(byte[] bytes) {
        try (DataInputStream in = new DataInputStream(new ByteArrayInputStream(bytes))) {
            int n = in.readInt();
            List<Object> out = new ArrayList<>(n);
            for (int i = 0; i < n; i++) {
                byte tag = in.readByte();
                if (tag == SHIPPED) {
                    boolean lateSender = in.readBoolean();
                    long key = in.readLong();
                    double wait = in.readDouble();
                    TimeMap times = timeMap(in);
                    double[] costs = doubles(in);
                    boolean cp = in.readBoolean();
                    out.add(new Shipped(lateSender, key, new CostReplay.Shipment(wait, times, costs, cp)));
                } else if (tag == ARRIVAL) {
                    int comm = in.readInt();
                    int instance = in.readInt();
                    int member = in.readInt();
                    int location = in.readInt();
                    int row = in.readInt();
                    int participants = in.readInt();
                    byte kind = in.readByte();
                    int size = in.readInt();
                    int reference = in.readInt();
                    int sp = in.readInt();
                    double wait = in.readDouble();
                    double[] costs = doubles(in);
                    boolean cp = in.readBoolean();
                    boolean waitState = in.readBoolean();
                    TimeMap delay = timeMap(in);
                    CostReplay.RootPart root = null;
                    if (in.readBoolean()) {
                        int prevSp = in.readInt();
                        TreeMap<Integer, Integer> prevSps = new TreeMap<>();
                        for (int k = in.readInt(); k > 0; k--) {
                            int j = in.readInt();
                            prevSps.put(j, in.readInt());
                        }
                        TimeMap group = timeMap(in);
                        TimeMap[] prev = new TimeMap[in.readInt()];
                        for (int k = 0; k < prev.length; k++) {
                            prev[k] = timeMap(in);
                        }
                        root = new CostReplay.RootPart(prevSp, prevSps, group, prev);
                    }
                    out.add(new CostReplay.Arrival(comm, instance, member, location, row, participants, kind, size,
                            reference, sp, wait, costs, cp, waitState, delay, root));
                } else {
                    throw new IllegalStateException("unknown item " + tag + " in a root-cause hand-over");
                }
            }
            return out;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static void timeMap(DataOutputStream o, TimeMap t) throws IOException {
        if (t == null) {
            o.writeInt(-1);
            return;
        }
        o.writeInt(t.size());
        for (int i = 0; i < t.size(); i++) {
            o.writeInt(t.paths()[i]);
            o.writeDouble(t.seconds()[i]);
        }
        o.writeDouble(t.sum());
    }

    private static TimeMap timeMap(DataInputStream in) throws IOException {
        int n = in.readInt();
        if (n < 0) {
            return null;
        }
        int[] p = new int[n];
        double[] v = new double[n];
        for (int i = 0; i < n; i++) {
            p[i] = in.readInt();
            v[i] = in.readDouble();
        }
        return new TimeMap(p, v, in.readDouble());
    }

    private static void doubles(DataOutputStream o, double[] d) throws IOException {
        o.writeInt(d == null ? -1 : d.length);
        if (d != null) {
            for (double x : d) {
                o.writeDouble(x);
            }
        }
    }

    private static double[] doubles(DataInputStream in) throws IOException {
        int n = in.readInt();
        if (n < 0) {
            return null;
        }
        double[] d = new double[n];
        for (int i = 0; i < n; i++) {
            d[i] = in.readDouble();
        }
        return d;
    }
}
