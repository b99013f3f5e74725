package io.sluice.storage.backend;

import io.sluice.core.commit.Silence;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import software.amazon.awssdk.core.interceptor.Context;
import software.amazon.awssdk.core.interceptor.ExecutionAttributes;
import software.amazon.awssdk.core.interceptor.ExecutionInterceptor;

/**
 * How long a store has not answered while requests wait for it, said in words: once when it passes {@link #WARN_AFTER},
 * and again when the store answers. The SDK retries a store that is down for the whole retry window without a word, so
 * a run whose store was down showed only "0.00 rec/s · not catching up" for minutes (a new user's run, S3 stopped for
 * 3 minutes), where a cluster that does not answer is named.
 *
 * <p>The SDK's interceptor calls only count; the rule is the engine's {@link Silence}, the one that watches clusters:
 * a silence counts while a request waits, any HTTP answer (an error status included: the store is there) ends it, and
 * a process that did not run between two looks (SIGSTOP) does not blame the store for the time. A request that gave
 * up without an answer ends the silence without "answers again": its failure says so itself.
 *
 * <p>Threading: the interceptor's methods run on the threads that make requests and touch only atomics; {@link #look}
 * (the words' daemon thread, started by {@link #watch} and stopped by {@link #close}) and {@link #silentFor} (any
 * thread) share the {@link Silence} under this object's lock.
 */
final class StoreSilence implements ExecutionInterceptor, AutoCloseable {

    /** A request to S3 takes well under a second; this long without any answer is an outage, not a slow answer. */
    static final Duration WARN_AFTER = Duration.ofSeconds(15);
    private static final Logger LOG = LoggerFactory.getLogger(StoreSilence.class);

    private final String store;
    private final Duration retryFor;
    private final LongSupplier clock;
    private final AtomicInteger waiting = new AtomicInteger();
    private final AtomicLong answers = new AtomicLong();
    // under this object's lock
    private final Silence silence = new Silence(WARN_AFTER);
    private long answersAtLastLook;
    private ScheduledExecutorService words;

    /**
     * @param store    the store's name in words ({@code s3://bucket/prefix})
     * @param retryFor how long each request is retried, for the words
     * @param clock    {@link System#nanoTime}, or a test's
     */
    StoreSilence(String store, Duration retryFor, LongSupplier clock) {
        this.store = store;
        this.retryFor = retryFor;
        this.clock = clock;
    }

    /** Starts saying the silences, looking every {@code every} (well under {@link Silence}'s stall of 5 s). */
    StoreSilence watch(Duration every) {
        words = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "sluice-store-silence");
            t.setDaemon(true);
            return t;
        });
        words.scheduleWithFixedDelay(this::look, every.toMillis(), every.toMillis(), TimeUnit.MILLISECONDS);
        return this;
    }

    @Override
    public void beforeExecution(Context.BeforeExecution context, ExecutionAttributes attributes) {
        waiting.incrementAndGet();
    }

    @Override
    public void afterTransmission(Context.AfterTransmission context, ExecutionAttributes attributes) {
        answers.incrementAndGet();
    }

    @Override
    public void afterExecution(Context.AfterExecution context, ExecutionAttributes attributes) {
        waiting.decrementAndGet();
    }

    @Override
    public void onExecutionFailure(Context.FailedExecution context, ExecutionAttributes attributes) {
        waiting.decrementAndGet();
    }

    /** How long the store has not answered while requests waited, once that is said; empty before and after. */
    synchronized Optional<Duration> silentFor() {
        return silence.length(clock.getAsLong());
    }

    /** One look of the words' thread: says a silence that reached {@link #WARN_AFTER}, and the answer that ends it. */
    synchronized Silence.Turn look() {
        long answered = answers.get();
        Silence.Turn turn = silence.look(clock.getAsLong(), answered != answersAtLastLook, waiting.get() > 0);
        answersAtLastLook = answered;
        if (turn == Silence.Turn.BEGAN) {
            LOG.warn("{}: the store has not answered for {} s; each request is retried for up to {} s (the retry "
                    + "time), and what writes there waits meanwhile", store, silence.seconds(), retryFor.toSeconds());
        } else if (turn == Silence.Turn.ENDED) {
            LOG.info("{}: the store answers again, after {} s without an answer", store, silence.seconds());
        }
        return turn;
    }

    @Override
    public void close() {
        if (words != null) {
            words.shutdownNow();
        }
    }
}
