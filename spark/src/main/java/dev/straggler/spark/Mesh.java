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
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * Connections between the tasks of one barrier stage, for exchanges in lock step (a step of a bulk-synchronous
 * computation). Spark's own {@link BarrierTaskContext#allGather} passes every message through the driver and polls
 * for its answer once a second, which costs about a second per step; the backward replay takes a step per
 * synchronisation that crosses tasks (thousands in a long run). So the tasks meet once through {@code allGather},
 * telling each other where they listen, and then exchange directly: one connection per ordered pair of tasks, the
 * way MPI jobs launched on Spark's barrier mode connect. Each step every task sends every other task one frame
 * (empty when it has nothing for it) and reads one from each.
 */
final class Mesh implements AutoCloseable {
    /** A step's frame from one task. */
    record Frame(boolean anything, int blocked, List<String> blockedFirst, byte[] data) {
    }

    /** Frames up to this size are written by the calling thread (well below any socket send buffer). */
    private static final int INLINE = 8 << 10;

    private final BarrierTaskContext ctx;
    private final int self;
    private final int tasks;
    private final ServerSocket server;
    private final DataOutputStream[] out;
    private final DataInputStream[] in;
    private final Socket[] inSocket;
    private final List<Socket> sockets = new ArrayList<>();
    private final ExecutorService senders;

    Mesh(BarrierTaskContext ctx) throws IOException {
        this.ctx = ctx;
        this.self = ctx.partitionId();
        this.tasks = ctx.getTaskInfos().length;
        this.out = new DataOutputStream[tasks];
        this.in = new DataInputStream[tasks];
        this.inSocket = new Socket[tasks];
        this.server = new ServerSocket();
        server.bind(new InetSocketAddress(0));
        String host = SparkEnv.get() != null ? SparkEnv.get().blockManager().blockManagerId().host() : "localhost";
        String[] where = ctx.allGather(host + ":" + server.getLocalPort());
        // connect to every other task, and accept a connection from every other task (each announces itself)
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
        for (int accepted = 0; accepted < tasks - 1; ) {
            Socket s;
            try {
                s = server.accept();
            } catch (SocketTimeoutException e) {
                ctx.killTaskIfInterrupted();
                continue;
            }
            s.setTcpNoDelay(true);
            s.setSoTimeout(1000);
            sockets.add(s);
            DataInputStream d = new DataInputStream(new BufferedInputStream(s.getInputStream(), 1 << 16));
            int from = readInt(d);
            in[from] = d;
            inSocket[from] = s;
            accepted++;
        }
        this.senders = Executors.newFixedThreadPool(Math.max(1, Math.min(tasks - 1, 8)), r -> {
            Thread t = new Thread(r, "straggler-mesh-" + self);
            t.setDaemon(true);
            return t;
        });
    }

    int self() {
        return self;
    }

    int tasks() {
        return tasks;
    }

    /**
     * One step: sends {@code data[t]} (null for nothing) to each other task t, with whether this task sent anything
     * at all and how many of its locations are blocked (with the first described); returns every task's frame to
     * this one (this task's own at index {@code self}, without data).
     */
    Frame[] exchange(byte[][] data, int blocked, List<String> blockedFirst) throws IOException {
        boolean anything = false;
        for (int t = 0; t < tasks; t++) {
            anything |= t != self && data[t] != null;
        }
        boolean any = anything;
        List<Future<?>> sent = new ArrayList<>(tasks);
        for (int t = 0; t < tasks; t++) {
            if (t == self) {
                continue;
            }
            int to = t;
            if (data[to] == null || data[to].length <= INLINE) {
                // small enough for the socket's send buffer: written without waiting for the peer to read
                write(out[to], any, blocked, blockedFirst, data[to]);
                continue;
            }
            // written on other threads: two tasks writing large frames to each other must not wait for each other
            sent.add(senders.submit(() -> {
                write(out[to], any, blocked, blockedFirst, data[to]);
                return null;
            }));
        }
        Frame[] frames = new Frame[tasks];
        frames[self] = new Frame(anything, blocked, blockedFirst, null);
        for (int t = 0; t < tasks; t++) {
            if (t != self) {
                frames[t] = read(t);
            }
        }
        for (Future<?> f : sent) {
            try {
                f.get();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IOException("interrupted while sending to another task", e);
            } catch (java.util.concurrent.ExecutionException e) {
                throw new IOException("cannot send to another task: " + e.getCause().getMessage(), e.getCause());
            }
        }
        return frames;
    }

    private static void write(DataOutputStream o, boolean anything, int blocked, List<String> first, byte[] data)
            throws IOException {
        o.writeBoolean(anything);
        o.writeInt(blocked);
        o.writeInt(first.size());
        for (String s : first) {
            o.writeUTF(s);
        }
        o.writeInt(data == null ? -1 : data.length);
        if (data != null) {
            o.write(data);
        }
        o.flush();
    }

    private Frame read(int t) throws IOException {
        DataInputStream d = in[t];
        // waiting for a frame to begin: wake up once a second to see whether Spark killed the task; once it began,
        // the rest follows (a peer that stops mid-frame for ten minutes is taken as failed)
        inSocket[t].setSoTimeout(1000);
        boolean anything = readBoolean(d);
        inSocket[t].setSoTimeout(600_000);
        int blocked = d.readInt();
        int n = d.readInt();
        List<String> first = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            first.add(d.readUTF());
        }
        int len = d.readInt();
        byte[] data = null;
        if (len >= 0) {
            data = new byte[len];
            d.readFully(data);
        }
        return new Frame(anything, blocked, first, data);
    }

    /** Reads that wake up once a second to see whether Spark killed the task (a socket read ignores interrupts). */
    private int readInt(DataInputStream d) throws IOException {
        while (true) {
            try {
                return d.readInt();
            } catch (SocketTimeoutException e) {
                ctx.killTaskIfInterrupted();
            }
        }
    }

    private boolean readBoolean(DataInputStream d) throws IOException {
        while (true) {
            try {
                return d.readBoolean();
            } catch (SocketTimeoutException e) {
                ctx.killTaskIfInterrupted();
            }
        }
    }

    @Override
    public void close() {
        senders.shutdownNow();
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
