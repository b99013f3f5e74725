package io.sluice.testkit.junit;

import io.sluice.local.LocalDirs;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.platform.engine.TestExecutionResult;
import org.junit.platform.engine.support.descriptor.ClassSource;
import org.junit.platform.launcher.LauncherSession;
import org.junit.platform.launcher.LauncherSessionListener;
import org.junit.platform.launcher.TestExecutionListener;
import org.junit.platform.launcher.TestIdentifier;

/**
 * Keeps the suite's time honest: measures every test class and, when the test JVM's session ends, prints the
 * classes by time against the module's budget ({@code sluice.test.budget.seconds}, set per module in the build) and
 * writes the same table to {@code target/test-times.txt}. Going over budget is reported loudly rather than failing
 * the build, because a loaded 2-core machine varies by a third from run to run.
 *
 * <p>Registered through {@code META-INF/services} for every module that has the test kit on its test classpath.
 * JUnit creates one instance per service interface, so the measurements are static.
 *
 * <p>Threading: JUnit may report from several threads; the state is a concurrent map.
 */
public final class SuiteClock implements TestExecutionListener, LauncherSessionListener {

    private static final Map<String, Long> STARTED = new ConcurrentHashMap<>();
    private static final Map<String, Long> ELAPSED = new ConcurrentHashMap<>();
    private static final long SESSION_START = System.nanoTime();

    @Override
    public void executionStarted(TestIdentifier id) {
        className(id).ifPresent(c -> STARTED.put(c, System.nanoTime()));
    }

    @Override
    public void executionFinished(TestIdentifier id, TestExecutionResult result) {
        className(id).ifPresent(c -> {
            Long start = STARTED.remove(c);
            if (start != null) {
                ELAPSED.merge(c, System.nanoTime() - start, Long::sum);
            }
        });
    }

    @Override
    public void launcherSessionClosed(LauncherSession session) {
        if (ELAPSED.isEmpty()) {
            return;
        }
        // a module whose tests run in several JVMs (sluice.test.jvm names each) gets a table per JVM
        String jvm = System.getProperty("sluice.test.jvm", "");
        String module = System.getProperty("sluice.test.module", "tests") + (jvm.isEmpty() ? "" : " " + jvm);
        long budget = Long.getLong("sluice.test.budget.seconds", 0);
        double total = (System.nanoTime() - SESSION_START) / 1e9;
        StringBuilder table = new StringBuilder();
        table.append(String.format("%n[suite-clock] %s: %.1f s in this test JVM, budget %d s%s%n", module, total, budget,
                budget > 0 && total > budget ? "  <<< OVER BUDGET: make the slowest classes faster" : ""));
        ELAPSED.entrySet().stream()
                .sorted(Map.Entry.<String, Long>comparingByValue(Comparator.reverseOrder()))
                .forEach(e -> table.append(String.format("[suite-clock] %8.1f s  %s%n", e.getValue() / 1e9, e.getKey())));
        System.out.print(table);
        System.out.flush();
        String outputDir = System.getProperty(LocalDirs.ROOT_PROPERTY);
        if (outputDir != null) {
            try {
                String file = jvm.isEmpty() ? "test-times.txt" : "test-times-" + jvm + ".txt";
                Files.writeString(Path.of(outputDir).resolveSibling(file), table, StandardCharsets.UTF_8);
            } catch (IOException e) {
                System.err.println("[suite-clock] cannot write the test times: " + e);
            }
        }
    }

    private static java.util.Optional<String> className(TestIdentifier id) {
        return id.getSource()
                .filter(ClassSource.class::isInstance)
                .map(s -> ((ClassSource) s).getClassName());
    }
}
