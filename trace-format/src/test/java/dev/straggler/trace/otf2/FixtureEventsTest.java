package dev.straggler.trace.otf2;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.IOException;

import static org.junit.jupiter.api.Assertions.assertTrue;

/** Every fixture written by the OTF2 library reads exactly as otf2-print reads it. */
class FixtureEventsTest {

    @ParameterizedTest
    @ValueSource(strings = {"records", "mapped", "nompi"})
    void fixtureMatchesOtf2PrintEventByEvent(String fixture) throws IOException {
        long n = EventComparison.assertSameAsOtf2Print(Otf2Fixtures.anchor(fixture));
        assertTrue(n > 0, "otf2-print showed no events");
    }
}
