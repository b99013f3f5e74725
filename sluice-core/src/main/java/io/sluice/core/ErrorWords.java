package io.sluice.core;

import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.kafka.clients.consumer.CommitFailedException;
import org.apache.kafka.clients.consumer.RetriableCommitFailedException;
import org.apache.kafka.common.errors.InvalidProducerEpochException;
import org.apache.kafka.common.errors.ProducerFencedException;
import org.apache.kafka.common.errors.RebalanceInProgressException;
import org.apache.kafka.common.errors.RecordTooLargeException;

/**
 * Errors in words, for the lines a person reads: the Java class names that libraries and wrapping put in messages say
 * only whose error it was, so they are left out or said in words; the class and the stack stay for {@code --verbose},
 * where the exception itself is logged. One place for the engine's log lines, the commands' failure lines and the
 * libraries' log lines alike.
 *
 * <p>Threading: stateless.
 */
public final class ErrorWords {

    /**
     * A qualified exception class name and its colon (or the message's end), as wrapping puts them in a message:
     * Kafka's producer wraps a failed transaction's cause as {@code new KafkaException(cause)}, whose message is the
     * cause's {@code toString()}. A name followed by anything else (a topic named {@code com.acme.PaymentError-0}) stays.
     */
    private static final Pattern WRAPPED = Pattern.compile(
            "\\b(?:[a-z][a-z0-9_]*\\.)+[A-Z][A-Za-z0-9_$]*(?:Exception|Error)(?:: |$)");
    /** A qualified exception class name anywhere in a message, its simple name before the suffix in group 1. */
    private static final Pattern NAMED = Pattern.compile(
            "\\b(?:[a-z][a-z0-9_]*\\.)+([A-Z][A-Za-z0-9_$]*?)(Exception|Error)(?![-\\w])");
    private static final Pattern WORD_START = Pattern.compile("(?<=[a-z0-9])(?=[A-Z])");

    private ErrorWords() {
    }

    /**
     * An exception whose message says in words all that its causes would: a line that tells a failure by its causes
     * stops at it. Its causes stay for {@code --verbose} and for telling what kind of failure it was (a store's outage
     * wrapped in words still has Hadoop's "Call From vm/127.0.0.1 to localhost:8020 failed on connection exception
     * ...; For more details see: http://wiki.apache.org/hadoop/ConnectionRefused" below it).
     */
    public interface SaidInFull {
    }

    /**
     * An error in its own words: its message (Kafka's and the sinks' say what happened) without wrapped class names,
     * or its class's simple name when it has none. {@code toString()} put the qualified class name in front
     * ({@code org.apache.kafka.common.errors.ProducerFencedException: ...}).
     */
    public static String of(Throwable error) {
        if (error instanceof CommitFailedException) {
            // its own words advise the client's API ("You can try completing the rebalance by calling poll()"): a
            // new user's run
            return "the group rebalanced while the commit was under way, so the coordinator refused it (a partition "
                    + "may have moved to another member, which goes on from the last commit)";
        }
        if (error instanceof RebalanceInProgressException) {
            // "... You can try completing the rebalance by calling poll() and then retry the operation." (a new
            // user's run with two instances)
            return "the group was rebalancing, so the coordinator refused the commit (the partitions' next commit, "
                    + "here or at their next owner, goes on from the last one)";
        }
        if (error instanceof RetriableCommitFailedException) {
            // "Offset commit failed with a retriable exception. You should retry committing the latest consumed
            // offsets." (a new user's run through a broker restart): its cause says what happened
            return "the commit did not reach the group's coordinator" + (error.getCause() == null ? ""
                    + " (it may be moving, or its broker restarting)" : " (" + of(error.getCause()) + ")")
                    + "; the next commit carries these offsets again";
        }
        String own = fencedOrTooLarge(error);
        if (own != null) {
            return own;
        }
        String message = error.getMessage();
        // a cause's words in its wrapper's message ("the sink failed: … Producer attempted to produce with an old
        // epoch.") are said as the cause's own would be
        List<Throwable> chain = Causes.of(error);
        for (Throwable cause : chain.subList(1, chain.size())) {
            if (message == null) {
                break;
            }
            String causeWords = fencedOrTooLarge(cause);
            if (causeWords != null && cause.getMessage() != null && message.contains(cause.getMessage())) {
                message = message.replace(cause.getMessage(), causeWords);
            }
        }
        String words = message == null ? "" : withoutClassNames(message).replace(API_TIMEOUT_ADVICE, "").strip();
        return words.isEmpty() ? error.getClass().getSimpleName() : words;
    }

    /** The consumer's advice in its timeouts' words, about a setting the command chose (a chaos run). */
    private static final String API_TIMEOUT_ADVICE =
            " Try tuning default.api.timeout.ms larger to relax the threshold.";

    /** Words for a fenced transaction or a record too large for the target, whose Kafka words mislead; else null. */
    private static String fencedOrTooLarge(Throwable error) {
        if (error instanceof ProducerFencedException || error instanceof InvalidProducerEpochException) {
            // "There is a newer producer with the same transactionalId which fences the current one." said of a lone
            // instance paused past transaction.timeout.ms, where no newer producer existed (a chaos run)
            return "the target cluster fenced this instance's transaction: another instance took over its partitions, "
                    + "or the target aborted the open transaction after transaction.timeout.ms while this process did "
                    + "not run (paused, or its machine stalled)";
        }
        if (error instanceof RecordTooLargeException) {
            return "a record is larger than the target takes (the topic's max.message.bytes, the brokers' "
                    + "message.max.bytes, or the producer's max.request.size): raise the limit above the record's "
                    + "size; every start stops at this record until then";
        }
        return null;
    }

    /**
     * {@code message} without the class names wrapping put in front of causes' messages, and without the stack frames
     * a server put in its own (an HDFS NameNode's refusal carries its 22-line Java stack trace in the message: a new
     * user's run of a folder without permission).
     */
    public static String withoutClassNames(String message) {
        return WRAPPED.matcher(STACK_FRAMES.matcher(message).replaceAll("")).replaceAll("");
    }

    /**
     * A stack trace's lines in a message: {@code \n\tat a.b.C.m(C.java:12)} and {@code \n\t... 3 more} (a newline, a
     * tab, then the frame).
     */
    private static final Pattern STACK_FRAMES = Pattern.compile(
            "\\r?\\n[ \\t]+(?:at [\\w.$<>/-]+\\([^)\\n]*\\)|\\.\\.\\. \\d+ more)(?=\\r?\\n|$)");

    /**
     * {@code message} with each exception class name said in words: the Kafka producer's "… due to
     * org.apache.kafka.common.errors.NotLeaderOrFollowerException" reads "… due to not leader or follower".
     */
    public static String classNamesInWords(String message) {
        if (message == null || message.indexOf('.') < 0) {
            return message;
        }
        Matcher m = NAMED.matcher(message);
        StringBuilder out = new StringBuilder();
        while (m.find()) {
            String words = m.group(1).isEmpty() ? m.group(2).toLowerCase(Locale.ROOT)
                    : WORD_START.matcher(m.group(1)).replaceAll(" ").toLowerCase(Locale.ROOT);
            m.appendReplacement(out, Matcher.quoteReplacement(words));
        }
        m.appendTail(out);
        return out.toString();
    }
}
