package dev.straggler.spark;

import org.apache.spark.BarrierTaskContext;
import org.apache.spark.SparkEnv;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * Connections between the tasks of one barrier stage, over which they run a message-passing computation to its end.
 * Spark's own {@link BarrierTaskContext#allGather} passes every message through the driver and the waiting task looks
 * for the answer once a second, which would cost about a second per exchange; the backward replay hands data between
 * tasks once per synchronisation that crosses them (tens of thousands in a long run). So the tasks meet once through
 * {@code allGather}, telling each other where they listen, and then talk directly: one connection per ordered pair
 * of tasks, the way MPI jobs launched on Spark's barrier mode connect.
 *
 * <p>Data goes out as soon as it exists, only to the tasks it is for; each task works whenever data arrives. The end
 * — no task has anything left to do and nothing is under way — is detected by counting (Mattern's double counting):
 * task 0, when it has nothing to do, asks every task how many data messages it has sent and received so far; when
 * two rounds of answers in a row give the same totals, and sent equals received, nothing was under way between them
 * and nothing can happen any more. Connections are FIFO, so answers never overtake data.
 */
final class Mesh implements AutoCloseable {
    /** What a task does with data: advance, and say what it hands to which task. */
    interface Worker {
        /** Advances as far as possible; per task, what to hand it (null for nothing). */
        byte[][] step();

        void receive(byte[] data);

        int blockedCount();

        /** The first blocked locations described, in location order. */
        List<String> blocked();
    }

    /** How the computation ended: blocked locations over all tasks, and the first described (task order). */
    record End(int blocked, List<String> first, long sent, long probes) {
    }

    private static final byte DATA = 0;
    private static final byte PROBE = 1;
    private static final byte REPLY = 2;
    private static final byte DONE = 3;
    /** A reader thread's connection failed. */
    private static final byte FAILED = 4;
    /** A task's one message to another in {@link #exchange}, before {@link #run}. */
    private static final byte BULK = 5;

    private record Message(byte type, int from, int wave, long sent, long received, int blocked, List<String> first,
                           byte[] data, IOException failure) {
    }

    /** How tasks meet and how a waiting task learns that Spark killed it. */
    interface Rendezvous {
        /** Every task's message, in task order (each task calls this once, at the same time). */
        String[] allGather(String message) throws IOException;

        /** Throws when the task was killed. */
        void checkKilled();
    }

    private final Rendezvous ctx;
    private final int self;
    private final int tasks;
    private final ServerSocket server;
    private final DataOutputStream[] out;
    private final List<Socket> sockets = new ArrayList<>();
    private final List<Thread> readers = new ArrayList<>();
    private final LinkedBlockingQueue<Message> inbox = new LinkedBlockingQueue<>();
    /**
     * What arrived during {@link #exchange} from tasks already running {@link #run} (a task may finish its exchange
     * and start sending data before another has received everything); {@link #run} takes these first, in order.
     */
    private final java.util.ArrayDeque<Message> early = new java.util.ArrayDeque<>();
    private volatile boolean closing;

    /** The mesh of a barrier stage's tasks, meeting through {@link BarrierTaskContext#allGather}. */
    static Mesh of(BarrierTaskContext ctx) throws IOException {
        String host = SparkEnv.get() != null ? SparkEnv.get().blockManager().blockManagerId().host() : "localhost";
        return new Mesh(ctx.partitionId(), ctx.getTaskInfos().length, host, new Rendezvous() {
            @Override
            public String[] allGather(String message) {
                return ctx.allGather(message);
            }

            @Override
            public void checkKilled() {
                ctx.killTaskIfInterrupted();
            }
        });
    }

    /** Task {@code self} of {@code tasks}, reachable at {@code host}. */
    Mesh(int self, int tasks, String host, Rendezvous ctx) throws IOException {
        this.ctx = ctx;
        this.self = self;
        this.tasks = tasks;
        this.out = new DataOutputStream[tasks];
        this.server = new ServerSocket();
        server.bind(new InetSocketAddress(0));
        String[] where = ctx.allGather(host + ":" + server.getLocalPort());
        // connect to every other task (to send), and accept a connection from every other task (to receive)
        for (int t = 0; t < tasks; t++) {
            if (t == self) {
                continue;
            }
            String w = where[t];
            int colon = w.lastIndexOf(':');
            Socket s = new Socket();
            s.connect(new InetSocketAddress(w.substring(0, colon), Integer.parseInt(w.substring(colon + 1))), 60_000);
            s.setTcpNoDelay(true);
            sockets.add(s);
            out[t] = new DataOutputStream(new BufferedOutputStream(s.getOutputStream(), 1 << 16));
            out[t].writeInt(self);
            out[t].flush();
        }
        server.setSoTimeout(1000);
        boolean[] connected = new boolean[tasks];
        for (int accepted = 0; accepted < tasks - 1; ) {
            Socket s;
            try {
                s = server.accept();
            } catch (SocketTimeoutException e) {
                ctx.checkKilled();
                continue;
            }
            s.setTcpNoDelay(true);
            s.setSoTimeout(10_000);
            DataInputStream in = new DataInputStream(new BufferedInputStream(s.getInputStream(), 1 << 16));
            int from;
            try {
                from = in.readInt();
            } catch (IOException e) {
                s.close(); // not one of this stage's tasks announcing itself
                continue;
            }
            if (from < 0 || from >= tasks || from == self || connected[from]) {
                s.close();
                continue;
            }
            connected[from] = true;
            s.setSoTimeout(0);
            sockets.add(s);
            Thread r = new Thread(() -> read(from, in), "straggler-mesh-" + self + "-from-" + from);
            r.setDaemon(true);
            readers.add(r);
            accepted++;
        }
        readers.forEach(Thread::start);
    }

    /**
     * Hands every other task one message ({@code data[t]}, null for an empty one) and returns the one each other task
     * handed this one ({@code [t]}; null for this task). Every task calls this once, before {@link #run}: an all-to-all
     * exchange with one frame per ordered pair of tasks, so what the tasks must know of each other before the
     * computation starts needs no Spark shuffle.
     */
    byte[][] exchange(byte[][] data) throws IOException {
        for (int t = 0; t < tasks; t++) {
            if (t != self) {
                write(t, BULK, 0, 0, 0, 0, List.of(), data[t] == null ? new byte[0] : data[t]);
            }
        }
        byte[][] got = new byte[tasks][];
        for (int missing = tasks - 1; missing > 0; ) {
            Message m = take();
            if (m.type() == BULK && got[m.from()] == null) {
                got[m.from()] = m.data();
                missing--;
            } else if (m.type() == FAILED) {
                throw new IOException("connection to another task of the root-cause replay failed: "
                        + m.failure().getMessage(), m.failure());
            } else {
                // connections are FIFO: a task's data and probes come after its exchange message
                early.add(m);
            }
        }
        return got;
    }

    /** Runs {@code worker} until no task has anything left to do; every task calls this once. */
    End run(Worker worker) throws IOException {
        long sent = 0;
        long received = 0;
        long probes = 0;
        sent += send(worker.step());
        // task 0's counting rounds
        int wave = 0;
        boolean waveOpen = false;
        int replies = 0;
        long waveSent = 0;
        long waveReceived = 0;
        int waveBlocked = 0;
        List<String>[] waveFirst = newLists();
        long lastSent = -1;
        long lastReceived = -1;
        while (true) {
            Message m = early.isEmpty() ? inbox.poll() : early.poll();
            if (m == null && self == 0 && !waveOpen) {
                // a counting round only after a moment without data: idle gaps between hand-overs are mostly shorter,
                // and a round started in each of them would cost every other task a wake-up and a reply per
                // hand-over
                m = poll(IDLE_BEFORE_COUNTING_MICROS);
            }
            if (m == null) {
                if (self == 0 && !waveOpen) {
                    // idle: start a counting round (this task's own counts are taken when the round closes)
                    wave++;
                    probes++;
                    waveOpen = true;
                    replies = 0;
                    waveSent = 0;
                    waveReceived = 0;
                    waveBlocked = 0;
                    waveFirst = newLists();
                    for (int t = 1; t < tasks; t++) {
                        write(t, PROBE, wave, 0, 0, 0, List.of(), null);
                    }
                }
                m = take();
            }
            switch (m.type()) {
                case DATA -> {
                    received++;
                    worker.receive(m.data());
                    sent += send(worker.step());
                }
                case PROBE -> {
                    int b = worker.blockedCount();
                    write(0, REPLY, m.wave(), sent, received, b, b > 0 ? worker.blocked() : List.of(), null);
                }
                case REPLY -> {
                    if (m.wave() == wave) {
                        replies++;
                        waveSent += m.sent();
                        waveReceived += m.received();
                        waveBlocked += m.blocked();
                        waveFirst[m.from()] = m.first();
                    }
                }
                case DONE -> {
                    return new End(m.blocked(), m.first(), sent, probes);
                }
                case FAILED -> throw new IOException("connection to another task of the root-cause replay failed: "
                        + m.failure().getMessage(), m.failure());
                default -> throw new IllegalStateException("unknown message " + m.type());
            }
            if (self == 0 && waveOpen && replies == tasks - 1 && inbox.isEmpty() && early.isEmpty()) {
                waveOpen = false;
                long s = waveSent + sent;
                long r = waveReceived + received;
                if (s == r && s == lastSent && r == lastReceived) {
                    int b = waveBlocked + worker.blockedCount();
                    List<String> first = new ArrayList<>(b > 0 ? worker.blocked() : List.of());
                    for (int t = 1; t < tasks; t++) {
                        first.addAll(waveFirst[t]);
                    }
                    for (int t = 1; t < tasks; t++) {
                        write(t, DONE, wave, 0, 0, b, first, null);
                    }
                    return new End(b, first, sent, probes);
                }
                lastSent = s;
                lastReceived = r;
            }
        }
    }

    @SuppressWarnings({"unchecked", "rawtypes"})
    private List<String>[] newLists() {
        List<String>[] l = new List[tasks];
        for (int t = 0; t < tasks; t++) {
            l[t] = List.of();
        }
        return l;
    }

    /** How long task 0 waits for data before it starts a counting round. */
    private static final long IDLE_BEFORE_COUNTING_MICROS = 2_000;

    private Message poll(long micros) throws IOException {
        try {
            return inbox.poll(micros, TimeUnit.MICROSECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("root-cause replay interrupted", e);
        }
    }

    /** Waits for a message, looking once a second whether Spark killed the task. */
    private Message take() throws IOException {
        while (true) {
            try {
                Message m = inbox.poll(1, TimeUnit.SECONDS);
                if (m != null) {
                    return m;
                }
                ctx.checkKilled();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IOException("root-cause replay interrupted", e);
            }
        }
    }

    /** Sends each task its data; returns how many data messages went out. */
    private int send(byte[][] data) throws IOException {
        int n = 0;
        for (int t = 0; t < tasks; t++) {
            if (t != self && data[t] != null) {
                write(t, DATA, 0, 0, 0, 0, List.of(), data[t]);
                n++;
            }
        }
        return n;
    }

    private void write(int to, byte type, int wave, long sent, long received, int blocked, List<String> first,
                       byte[] data) throws IOException {
        DataOutputStream o = out[to];
        o.writeByte(type);
        switch (type) {
            case DATA, BULK -> {
                o.writeInt(data.length);
                o.write(data);
            }
            case PROBE -> o.writeInt(wave);
            case REPLY, DONE -> {
                o.writeInt(wave);
                o.writeLong(sent);
                o.writeLong(received);
                o.writeInt(blocked);
                o.writeInt(first.size());
                for (String s : first) {
                    o.writeUTF(s);
                }
            }
            default -> throw new IllegalStateException("unknown message " + type);
        }
        o.flush();
    }

    /** A reader thread: frames from one task into the inbox, in the order they were sent. */
    private void read(int from, DataInputStream in) {
        try {
            while (true) {
                byte type = in.readByte();
                Message m;
                switch (type) {
                    case DATA, BULK -> {
                        byte[] data = new byte[in.readInt()];
                        in.readFully(data);
                        m = new Message(type, from, 0, 0, 0, 0, List.of(), data, null);
                    }
                    case PROBE -> m = new Message(PROBE, from, in.readInt(), 0, 0, 0, List.of(), null, null);
                    case REPLY, DONE -> {
                        int wave = in.readInt();
                        long sent = in.readLong();
                        long received = in.readLong();
                        int blocked = in.readInt();
                        int n = in.readInt();
                        List<String> first = new ArrayList<>(n);
                        for (int i = 0; i < n; i++) {
                            first.add(in.readUTF());
                        }
                        m = new Message(type, from, wave, sent, received, blocked, first, null, null);
                    }
                    default -> throw new IOException("unknown frame type " + type + " from task " + from);
                }
                inbox.add(m);
                if (type == DONE) {
                    return;
                }
            }
        } catch (java.io.EOFException e) {
            // the peer closed its end: it has finished (nothing is sent after the end), or it failed, and then Spark
            // ends the whole stage
        } catch (IOException e) {
            if (!closing) {
                inbox.add(new Message(FAILED, from, 0, 0, 0, 0, List.of(), null, e));
            }
        }
    }

    @Override
    public void close() {
        closing = true;
        for (Socket s : sockets) {
            try {
                s.close();
            } catch (IOException ignored) {
                // closing: nothing left to save
            }
        }
        try {
            server.close();
        } catch (IOException ignored) {
            // closing: nothing left to save
        }
    }
}
