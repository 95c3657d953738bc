package dev.straggler.spark;

import org.junit.jupiter.api.Test;
import org.slf4j.spi.SLF4JServiceProvider;

import java.util.ArrayList;
import java.util.List;
import java.util.ServiceLoader;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Spark binds SLF4J to its log4j (configured by the tests' log4j2.properties); a second binding from Straggler's
 * command line makes SLF4J print "Class path contains multiple SLF4J providers" and use whichever comes first on the class path.
 */
class Slf4jBindingTest {

    @Test
    void slf4jIsBoundOnlyToSparksLog4j() {
        List<String> providers = new ArrayList<>();
        ServiceLoader.load(SLF4JServiceProvider.class).forEach(p -> providers.add(p.getClass().getName()));
        assertEquals(List.of("org.apache.logging.slf4j.SLF4JServiceProvider"), providers);
    }
}
