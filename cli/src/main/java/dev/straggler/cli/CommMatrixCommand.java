package dev.straggler.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import dev.straggler.trace.CommunicationMatrix;
import dev.straggler.trace.TraceSource;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.Callable;

@Command(name = "comm-matrix", mixinStandardHelpOptions = true,
        description = "Rank x rank point-to-point messages and bytes (sender rows, receiver columns).")
final class CommMatrixCommand implements Callable<Integer> {
    @Mixin
    ReadingOptions common;

    @Parameters(index = "0", paramLabel = "TRACE")
    Path trace;

    @Option(names = "--json", description = "Print JSON: {ranks, messages[][], bytes[][]}.")
    boolean json;

    @Option(names = "--bytes", description = "Show bytes instead of message counts in the table.")
    boolean showBytes;

    @Override
    public Integer call() throws Exception {
        try (TraceSource src = Inputs.open(trace, common)) {
            try {
                CommunicationMatrix m = CommunicationMatrix.compute(src);
                if (json) {
                    Map<String, Object> o = new LinkedHashMap<>();
                    o.put("ranks", m.ranks());
                    o.put("totalMessages", m.totalMessages());
                    o.put("totalBytes", m.totalBytes());
                    o.put("messages", m.messages());
                    o.put("bytes", m.bytes());
                    System.out.println(new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT).writeValueAsString(o));
                    return 0;
                }
                long[][] v = showBytes ? m.bytes() : m.messages();
                int shown = Math.min(m.ranks(), 32);
                System.out.printf("%s from row rank to column rank (%d ranks%s)%n", showBytes ? "bytes" : "messages", m.ranks(),
                        shown < m.ranks() ? ", first 32 shown; --json for all" : "");
                StringBuilder sb = new StringBuilder(String.format("%6s", ""));
                for (int j = 0; j < shown; j++) {
                    sb.append(String.format(" %10d", j));
                }
                System.out.println(sb);
                for (int i = 0; i < shown; i++) {
                    sb.setLength(0);
                    sb.append(String.format("%6d", i));
                    for (int j = 0; j < shown; j++) {
                        sb.append(v[i][j] == 0 ? String.format(" %10s", ".") : String.format(" %10d", v[i][j]));
                    }
                    System.out.println(sb);
                }
                System.out.printf("total: %,d messages, %,d bytes%n", m.totalMessages(), m.totalBytes());
            } finally {
                Inputs.reportSkipped(src);
            }
        }
        return 0;
    }
}
