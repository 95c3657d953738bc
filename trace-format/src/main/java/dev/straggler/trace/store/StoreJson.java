package dev.straggler.trace.store;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import dev.straggler.trace.TraceDefinitions;
import dev.straggler.trace.TraceFormatException;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;

/** Reads and writes the store's JSON files. Unknown fields are rejected: a newer store must not be half-read. */
final class StoreJson {
    static final ObjectMapper MAPPER = new ObjectMapper()
            .enable(SerializationFeature.INDENT_OUTPUT)
            .enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES);

    /** The definitions file: a format tag around the definitions record. */
    record DefinitionsFile(String format, int version, TraceDefinitions definitions) {
    }

    private StoreJson() {
    }

    static void write(Path file, Object value) throws IOException {
        Path tmp = file.resolveSibling(file.getFileName() + ".tmp");
        MAPPER.writeValue(tmp.toFile(), value);
        Files.move(tmp, file, java.nio.file.StandardCopyOption.REPLACE_EXISTING, java.nio.file.StandardCopyOption.ATOMIC_MOVE);
    }

    static <T> T read(Path file, Class<T> type) throws TraceFormatException {
        try {
            return MAPPER.readValue(file.toFile(), type);
        } catch (NoSuchFileException | java.io.FileNotFoundException e) {
            throw new TraceFormatException(file + ": missing (not a complete Straggler store)");
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw dev.straggler.trace.JsonErrors.format(file.toString(), e);
        } catch (IOException e) {
            throw new TraceFormatException(file + ": unreadable: " + e.getMessage(), e);
        }
    }
}
