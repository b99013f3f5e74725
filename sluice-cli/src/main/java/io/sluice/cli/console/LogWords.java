package io.sluice.cli.console;

import ch.qos.logback.classic.pattern.ClassicConverter;
import ch.qos.logback.classic.spi.ILoggingEvent;
import io.sluice.core.ErrorWords;

/**
 * A log line's message with the exception class names libraries put in them said in words: the Kafka producer's
 * "… due to org.apache.kafka.common.errors.NotLeaderOrFollowerException" reads "… due to not leader or follower" (a new
 * user's run). Without {@code --verbose} only; Sluice's own lines have no class names to begin with.
 *
 * <p>Threading: stateless; called by any thread that logs.
 */
public final class LogWords extends ClassicConverter {

    @Override
    public String convert(ILoggingEvent event) {
        // Sluice's own lines name topics, never classes: a topic such as com.acme.PaymentError stays as it is
        String logger = event.getLoggerName();
        return logger.startsWith("io.sluice.") || logger.startsWith("sluice.") ? event.getFormattedMessage()
                : ErrorWords.classNamesInWords(event.getFormattedMessage());
    }
}
