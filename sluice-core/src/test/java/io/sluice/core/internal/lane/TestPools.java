package io.sluice.core.internal.lane;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * Worker pools for a test, shut down after each test ({@code @RegisterExtension}). Their processing timeout is far
 * beyond any test, so the watchdog never steps in (see {@link WorkerPoolTest} for it).
 *
 * <p>Threading: the test thread.
 */
final class TestPools implements AfterEachCallback {

    private final String name;
    private final List<WorkerPool> pools = new ArrayList<>();

    TestPools(String name) {
        this.name = name;
    }

    WorkerPool of(int threads) {
        WorkerPool pool = new WorkerPool(name, threads, TimeUnit.MINUTES.toNanos(10));
        pools.add(pool);
        return pool;
    }

    @Override
    public void afterEach(ExtensionContext context) {
        pools.forEach(p -> p.shutdown(1000));
        pools.clear();
    }
}
