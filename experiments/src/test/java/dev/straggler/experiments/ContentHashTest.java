package dev.straggler.experiments;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** The content hash names a run by its bytes, whatever path it is given by. */
class ContentHashTest {
    @TempDir
    Path tmp;

    @Test
    void aStoreGivenByARelativePathHashesAsByItsAbsolutePath() throws IOException {
        Path store = Files.createDirectories(tmp.resolve("store"));
        Files.writeString(store.resolve("manifest.json"), "{}");
        Files.createDirectories(store.resolve("locations"));
        Files.writeString(store.resolve("locations").resolve("0.arrow"), "events");
        Path relative = Path.of("").toAbsolutePath().relativize(store);
        assertEquals(ContentHash.of(store), ContentHash.of(relative), "relative " + relative);
        assertEquals(2 + "events".length(), ContentHash.of(relative).bytes());
    }
}
