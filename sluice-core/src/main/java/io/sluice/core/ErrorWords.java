package io.sluice.core;

import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.kafka.clients.consumer.CommitFailedException;
import org.apache.kafka.clients.consumer.RetriableCommitFailedException;
import org.apache.kafka.common.errors.RebalanceInProgressException;

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
        String message = error.getMessage();
        String words = message == null ? "" : withoutClassNames(message).strip();
        return words.isEmpty() ? error.getClass().getSimpleName() : words;
    }

    /** {@code message} without the class names wrapping put in front of causes' messages. */
    public static String withoutClassNames(String message) {
        return WRAPPED.matcher(message).replaceAll("");
    }

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
