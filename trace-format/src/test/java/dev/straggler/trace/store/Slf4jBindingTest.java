package dev.straggler.trace.store;

import org.junit.jupiter.api.Test;
import org.slf4j.spi.SLF4JServiceProvider;

import java.util.ArrayList;
import java.util.List;
import java.util.ServiceLoader;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Arrow logs through SLF4J, which prints a warning into the build log on its first use when it finds no binding
 * ("No SLF4J providers were found") or more than one: the tests have exactly one, the silent one.
 */
class Slf4jBindingTest {

    @Test
    void arrowsLoggingHasExactlyOneSilentBindingInTests() {
        List<String> providers = new ArrayList<>();
        ServiceLoader.load(SLF4JServiceProvider.class).forEach(p -> providers.add(p.getClass().getName()));
        assertEquals(List.of("org.slf4j.nop.NOPServiceProvider"), providers);
    }
}
