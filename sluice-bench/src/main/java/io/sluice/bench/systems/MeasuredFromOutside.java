package io.sluice.bench.systems;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.Map;

/**
 * How a system's JVM that the benchmark measures from outside ends: it does its work, prints {@code <word> <json>},
 * and then waits to be stopped, since a process that exited could no longer be asked for its CPU time. On a failure
 * it prints it and exits with status 1.
 *
 * <p>Stateless.
 */
final class MeasuredFromOutside {

    /** The work: the number of records it handled. */
    @FunctionalInterface
    interface Work {
        long run() throws Exception;
    }

    private MeasuredFromOutside() {
    }

    /** Runs {@code work}, prints {@code <word> {"<field>": n}}, and waits to be stopped. */
    static void runThenWait(String word, String field, Work work) throws Exception {
        long handled;
        try {
            handled = work.run();
        } catch (Throwable e) {
            e.printStackTrace(System.out);
            System.out.flush();
            System.exit(1);
            return;
        }
        System.out.println(word + " " + new ObjectMapper().writeValueAsString(Map.of(field, handled)));
        System.out.flush();
        Thread.sleep(Long.MAX_VALUE);
    }
}
