package io.sluice.storage.backend;

import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
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
 * <p>Any HTTP answer counts, an error status included: the store is there. A request that no answer ended keeps the
 * silence going, so a silence is measured from the later of the last answer and the moment a request began to wait
 * while none was waiting.
 *
 * <p>Threading: the interceptor's methods run on the threads that make requests; {@link #silentFor} on any thread; the
 * words come from a daemon thread of its own, started by {@link #watch} and stopped by {@link #close}.
 */
final class StoreSilence implements ExecutionInterceptor, AutoCloseable {

    /** A request to S3 takes well under a second; this long without any answer is an outage, not a slow answer. */
    static final Duration WARN_AFTER = Duration.ofSeconds(15);
    private static final Logger LOG = LoggerFactory.getLogger(StoreSilence.class);

    private final String store;
    private final Duration retryFor;
    private final LongSupplier clock;
    private final AtomicInteger waiting = new AtomicInteger();
    private volatile long lastAnswer;
    private volatile long waitingSince;
    // the words' thread only
    private boolean said;
    private long silenceBegan;
    private long answerWhenSaid;
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
        this.lastAnswer = clock.getAsLong();
    }

    /** Starts saying the silences, looking every {@code every}. */
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
        if (waiting.getAndIncrement() == 0) {
            waitingSince = clock.getAsLong();
        }
    }

    @Override
    public void afterTransmission(Context.AfterTransmission context, ExecutionAttributes attributes) {
        lastAnswer = clock.getAsLong();
    }

    @Override
    public void afterExecution(Context.AfterExecution context, ExecutionAttributes attributes) {
        waiting.decrementAndGet();
    }

    @Override
    public void onExecutionFailure(Context.FailedExecution context, ExecutionAttributes attributes) {
        waiting.decrementAndGet();
    }

    /** How long requests have waited with no answer from the store; empty while nothing waits. */
    Optional<Duration> silentFor() {
        if (waiting.get() <= 0) {
            return Optional.empty();
        }
        long silent = clock.getAsLong() - silenceStart();
        return Optional.of(Duration.ofNanos(Math.max(0, silent)));
    }

    /** The later of the last answer and the moment a request began to wait while none was waiting. */
    private long silenceStart() {
        long answer = lastAnswer;
        long since = waitingSince;
        return answer - since > 0 ? answer : since;
    }

    /**
     * One look of the words' thread: a silence past {@link #WARN_AFTER} is said once, and so is the store's next
     * answer. Requests that gave up without one end nothing here: their failure says so itself, and "answers again"
     * would be untrue.
     */
    void look() {
        if (!said) {
            Optional<Duration> silent = silentFor();
            if (silent.isPresent() && silent.get().compareTo(WARN_AFTER) >= 0) {
                said = true;
                silenceBegan = silenceStart();
                answerWhenSaid = lastAnswer;
                LOG.warn("{}: the store has not answered for {} s; each request is retried for up to {} s (the retry "
                        + "time), and what writes there waits meanwhile", store, silent.get().toSeconds(),
                        retryFor.toSeconds());
            }
        } else if (lastAnswer != answerWhenSaid) {
            said = false;
            LOG.info("{}: the store answers again, after {} s without an answer", store,
                    TimeUnit.NANOSECONDS.toSeconds(lastAnswer - silenceBegan));
        }
    }

    @Override
    public void close() {
        if (words != null) {
            words.shutdownNow();
        }
    }
}
