package dev.straggler.trace.otf2;

import dev.straggler.trace.EventBatch;
import dev.straggler.trace.LocationReader;
import dev.straggler.trace.TraceDefinitions;
import dev.straggler.trace.TraceValidator;
import dev.straggler.trace.store.StoreOptions;
import dev.straggler.trace.store.StoreReader;
import dev.straggler.trace.store.StoreWriter;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.stream.IntStream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** An OTF2 archive imported into the Arrow store, locations in parallel, reads back event for event. */
class StoreImportTest {
    @TempDir
    Path tmp;

    @Test
    void importedFixtureReadsBackFromTheStore() throws IOException {
        Path store = tmp.resolve("store");
        try (Otf2Archive a = Otf2Archive.open(Otf2Fixtures.anchor("records"))) {
            try (StoreWriter w = StoreWriter.create(store, StoreOptions.defaults())) {
                int n = a.definitions().locations().size();
                try {
                    IntStream.range(0, n).parallel().forEach(l -> {
                        EventBatch b = new EventBatch(8192);
                        try (LocationReader r = a.openLocation(l)) {
                            while (r.next(b)) {
                                w.append(l, b);
                            }
                        } catch (IOException e) {
                            throw new UncheckedIOException(e);
                        }
                    });
                } catch (UncheckedIOException e) {
                    throw e.getCause();
                }
                w.finish(a.definitions());
            }
            try (StoreReader s = StoreReader.open(store)) {
                TraceDefinitions d = s.definitions();
                assertEquals(a.definitions().regions(), d.regions());
                assertEquals(a.definitions().communicators(), d.communicators());
                assertEquals(a.definitions().locations(), d.locations());
                assertEquals(a.definitions().skippedRecords(), d.skippedRecords(), "skipped record counts travel along");
                assertTrue(d.skippedRecords().containsKey("RMA_PUT"));
                for (int l = 0; l < d.locations().size(); l++) {
                    assertTrue(a.readLocation(l).sameEvents(s.readLocation(l)), "location " + l);
                }
            }
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"casita-2_jacobi_blame_cpu_015", "fastotf2-mi300", "real/npb-mg.S-16",
        "real/lulesh-s8-8"})
    void realTracesPassTheStructuralValidator(String trace) throws IOException {
        try (Otf2Archive a = Otf2Archive.open(SharedTraces.dir(trace))) {
            TraceValidator.Report r = TraceValidator.validate(a);
            assertTrue(r.ok(), r.problems().toString());
        }
    }
}
