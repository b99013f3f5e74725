package io.sluice.core.internal;

import java.util.regex.Pattern;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The engine's one logger, {@code io.sluice.engine}: what a person reads names the engine, not whichever internal
 * class noticed (the command's log lines show the logger's last name: "engine: ...").
 */
public final class EngineLog {

    public static final Logger LOG = LoggerFactory.getLogger("io.sluice.engine");

    private EngineLog() {
    }

    /**
     * An error in its own words, for a line a person reads: its message (Kafka's and the sinks' say what happened),
     * or its class's simple name when it has none. {@code toString()} put the qualified class name in front, which
     * says only whose error it was ({@code org.apache.kafka.common.errors.ProducerFencedException: ...}); the class and
     * the stack stay for {@code --verbose}, where the exception itself is logged.
     */
    public static String words(Throwable error) {
        if (error instanceof org.apache.kafka.clients.consumer.CommitFailedException) {
            // its own words advise the client's API ("You can try completing the rebalance by calling poll()"): a
            // new user's run
            return "the group rebalanced while the commit was under way, so the coordinator refused it (a partition "
                    + "may have moved to another member, which goes on from the last commit)";
        }
        String message = error.getMessage();
        String words = message == null ? "" : CLASS_NAME.matcher(message).replaceAll("").strip();
        return words.isEmpty() ? error.getClass().getSimpleName() : words;
    }

    /**
     * A qualified exception class name and its colon (or the message's end), as wrapping puts them in a message:
     * Kafka's producer wraps a failed transaction's cause as {@code new KafkaException(cause)}, whose message is the
     * cause's {@code toString()}. A name followed by anything else (a topic named {@code com.acme.PaymentError-0}) stays.
     */
    private static final Pattern CLASS_NAME = Pattern.compile(
            "\\b(?:[a-z][a-z0-9_]*\\.)+[A-Z][A-Za-z0-9_$]*(?:Exception|Error)(?:: |$)");
}
